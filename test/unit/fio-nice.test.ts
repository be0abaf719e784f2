import {expect} from 'chai'
import {FIO_NICE, fioNice} from '../../src/engine/fio.js'

describe('the nice value pts starts fio at', () => {
  const cases: Array<[number, number, string]> = [
    [0, FIO_NICE, 'pts at 0 (the usual case): fio ahead of ordinary work'],
    [-5, FIO_NICE, 'pts already raised a little: fio at FIO_NICE'],
    [-15, -15, 'pts raised further than FIO_NICE: fio keeps it'],
    [5, 5, 'pts started nicer (nice -n 5): fio yields as asked'],
    [19, 19, 'nice -n 19 pts: fio stays at 19, never raised'],
  ]
  for (const [pts, fio, why] of cases) it(`${pts} -> ${fio}: ${why}`, () => expect(fioNice(pts)).to.equal(fio))
})
