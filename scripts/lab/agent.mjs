// The device lab's command agent: runs inside the guest (scripts/lab/init.sh starts it) on the
// virtio-serial port named "agent". One JSON request per line, {id, cmd, timeoutMs?, env?, cwd?}:
// `cmd` runs under /bin/sh -c in its own process group, killed (the whole group) at the timeout.
// The answer is one JSON line: {id, code, signal, timedOut, ms, stdout, stderr} (outputs base64).
// {id, op: "poweroff"} syncs and powers the guest off. Requests run concurrently.
import {spawn, execFileSync} from 'node:child_process'
import {openSync, readdirSync, readFileSync, createReadStream, createWriteStream} from 'node:fs'
import {createInterface} from 'node:readline'

const portName = readdirSync('/sys/class/virtio-ports').find(p => readFileSync(`/sys/class/virtio-ports/${p}/name`, 'utf8').trim() === 'agent')
if (!portName) { console.error('lab-agent: no virtio port named "agent"'); process.exit(1) }
const fd = openSync(`/dev/${portName}`, 'r+')
const out = createWriteStream(null, {fd, autoClose: false})
const send = o => out.write(JSON.stringify(o) + '\n')

function run(req) {
  const t0 = Date.now()
  const child = spawn('/bin/sh', ['-c', req.cmd], {cwd: req.cwd ?? '/', env: {...process.env, ...(req.env ?? {})}, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
  const so = [], se = []
  child.stdout.on('data', d => so.push(d))
  child.stderr.on('data', d => se.push(d))
  let timedOut = false
  const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL') } catch { /* gone */ } }, req.timeoutMs ?? 120_000)
  child.on('error', e => { se.push(Buffer.from(String(e))) })
  child.on('close', (code, signal) => {
    clearTimeout(timer)
    send({id: req.id, code, signal, timedOut, ms: Date.now() - t0, stdout: Buffer.concat(so).toString('base64'), stderr: Buffer.concat(se).toString('base64')})
  })
}

const rl = createInterface({input: createReadStream(null, {fd, autoClose: false})})
rl.on('line', line => {
  if (!line.trim()) return
  let req
  try { req = JSON.parse(line) } catch { return }
  if (req.op === 'poweroff') {
    try { execFileSync('sync') } catch { /* keep going */ }
    send({id: req.id, code: 0, signal: null, timedOut: false, ms: 0, stdout: '', stderr: ''})
    setTimeout(() => { try { execFileSync('/bb/poweroff', ['-f']) } catch { process.exit(0) } }, 100)
    return
  }
  run(req)
})
send({id: 0, ready: true})
