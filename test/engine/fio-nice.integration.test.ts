/**
 * fio really starts at the nice value fioNice() gives (read from /proc/<pid>/stat of the running
 * fio, started through FioEngine as a run starts it), and the runner itself runs at it.
 * Needs root to lower the value (CI and this machine run as root).
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {getPriority, setPriority} from 'node:os'
import {join} from 'node:path'
import {FioEngine, FIO_NICE, findFio, gateParent} from '../../src/engine/fio.js'
import {useTmpDir} from '../helpers/tmp.js'

const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16])

describe('fio priority and gate folder (real fio)', function () {
  this.timeout(60_000)
  const tmp = useTmpDir('pts-fio-nice-')

  async function niceOfFioStartedAt(ptsNice: number): Promise<{fio: number; after: number; gateDir: string}> {
    const before = getPriority()
    setPriority(ptsNice)
    const engine = new FioEngine(findFio().path)
    try {
      const job = `[j]\nioengine=null\nfilename=${join(tmp(), 'x')}\nsize=1m\nrw=read\ntime_based=1\nruntime=2\n`
      const started = await engine.start(1, job, join(tmp(), `out-${ptsNice}.json`), false)
      const fio = niceOf(started.pid)
      const after = getPriority()
      await started.exited
      return {fio, after, gateDir: engine.gateDir}
    } finally {
      await engine.close()
      setPriority(before)
    }
  }

  before(function () {
    // lowering a nice value (0 -> -10, 19 -> 0) needs root, as pts run on a device does; CI runs as root
    if (process.getuid?.() !== 0) throw new Error('these tests need root (they lower a nice value, as pts does when it starts fio)')
  })

  it('pts at nice 0 runs its steps at FIO_NICE and starts fio there', async () => {
    const r = await niceOfFioStartedAt(0)
    expect(r.fio).to.equal(FIO_NICE)
    expect(r.after).to.equal(FIO_NICE)
  })

  it('pts started at nice 19 stays at 19 and starts fio at 19 (never raised)', async () => {
    const r = await niceOfFioStartedAt(19)
    expect(r.fio).to.equal(19)
    expect(r.after).to.equal(19)
  })

  it('the gate folder is under /dev/shm when that is writable', async () => {
    const r = await niceOfFioStartedAt(0)
    expect(r.gateDir.startsWith(`${gateParent()}/pts-gate-`)).to.equal(true)
    expect(gateParent()).to.equal('/dev/shm')
  })
})
