import puppeteer from 'puppeteer-core'
import {readFileSync} from 'node:fs'
const b = await puppeteer.launch({executablePath: '/usr/bin/chromium', pipe: true, headless: true, args: ['--no-sandbox']})
const p = await b.newPage()
await p.setContent(readFileSync(process.argv[2], 'utf8'))
await p.emulateMediaType('print')
const r = await p.evaluate(() => [...document.querySelectorAll('.page')].map(s => {
  const body = s.querySelector('.body'); const hdr = s.querySelector('.snia'); const row = s.querySelector('table.files tbody tr')
  return {n: s.id, over: body.scrollHeight - body.clientHeight, bodyH: body.clientHeight, hdrH: hdr.offsetHeight, rowH: row ? row.getBoundingClientRect().height : null}
}))
console.log(JSON.stringify(r))
await b.close()
