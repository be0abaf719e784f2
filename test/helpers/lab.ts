/**
 * The device lab (test tier test/lab/): a QEMU guest with one NVMe controller, one SCSI disk
 * (virtio-scsi) and one SATA disk (ICH9 AHCI), each a sparse image with a set serial, driven by
 * the host's own nvme-cli, sg3-utils, sdparm, hdparm, smartctl, fio and node (the guest mounts the
 * host's /usr and /etc read-only over 9p, and the project at its own path). The guest is built once
 * by scripts/lab/build-guest.sh into /var/cache/pts-lab (outside the repository); it boots under
 * TCG (this machine kind's /dev/kvm is software virtualisation, on which the Debian kernel does
 * not boot), in ~5 s on an idle host. Commands go in and out through a virtio-serial port
 * (scripts/lab/agent.mjs). Every guest is stopped by stop() (call it from an `after` hook); a
 * process exit kills any guest still running, and .ci/run kills the pids left in $PTS_LAB_RUN_DIR.
 * PTS_LAB_MONITOR=1 adds a QEMU monitor on monitor.sock in the lab folder (e.g. `info jit`).
 */
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, truncateSync} from 'node:fs'
import {connect, type Socket} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ROOT} from './cli.js'

export const LAB_SERIALS = {nvme: 'PTSNVME0001', scsi: 'PTSSCSI0001', sata: 'PTSSATA0001'} as const
export const LAB_MODELS = {nvme: 'QEMU NVMe Ctrl', scsi: 'SCSIDISK', sata: 'PTS-LAB-SATA'} as const

export interface LabResult { code: number | null; signal: string | null; timedOut: boolean; ms: number; stdout: string; stderr: string }
export interface LabOptions {
  /** Image sizes in MiB (sparse). */
  nvmeMiB?: number
  scsiMiB?: number
  sataMiB?: number
  /** Guest RAM in MiB (default 768: node + fio + pts). */
  memMiB?: number
  bootTimeoutMs?: number
  /** The host nice value QEMU (every vCPU thread) runs at; default LAB_NICE. */
  nice?: number
}

/**
 * The host nice value of the guest's QEMU: the value pts gives fio on a real host (FIO_NICE), for
 * the same reason. The guest's CPUs are host threads: at nice 0 two CPU hogs on this 2-core host
 * take half of them, and a vCPU thread taken off its core stops everything the guest runs on it,
 * fio between two of its clock reads included.
 */
export const LAB_NICE = -10

/**
 * Guest kernel parameters for its clock. Under TCG the guest's TSC is one host clock for every
 * vCPU (QEMU's cpu_get_ticks: monotonic across vCPUs, constant rate), but the kernel marks it
 * unstable by a heuristic (the emulated CPU is an AMD model without constant_tsc, "assumed
 * unsynchronized") and falls back to the HPET, an emulated device: every clock_gettime becomes a
 * system call and an MMIO exit into QEMU. Measured in the guest: 18,000 clock reads/s on the HPET,
 * 415,000 on the TSC; fio reads the clock several times per I/O and at each step's start and end.
 */
const CLOCK_ARGS = ['tsc=reliable', 'clocksource=tsc']

/**
 * TCG's translated-code cache, MiB. When it is full QEMU flushes it, stopping every vCPU and
 * translating all running code again; node's JIT makes the guest's code churn high. Measured
 * on one IOPS run of the lab (56 points of 1 s): 35 flushes with 128 MiB, 2 with 1024 MiB, and
 * fio's start-up stalls (the time between its clock start and its first I/O, which shortens a step) fell
 * from 12 steps of 56 at 3 ms or more to 3. The cache's pages cost host memory only once used.
 */
const TB_MIB = 1024

const PROJECT = ROOT.replace(/\/$/, '')
const running = new Set<Lab>()
process.on('exit', () => { for (const l of running) l.killNow() })

/** Why the lab cannot run here as a documented machine limit (then tests skip, saying so), or null. */
export function labMachineLimit(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the device lab needs an x86-64 Linux host (this is ${process.platform}/${process.arch})`
  if (process.getuid?.() !== 0) return 'the device lab needs root (its guest cache is /var/cache/pts-lab and the guest mounts the host /usr); CI runs as root'
  return null
}

/** Build (or find cached) the guest kernel + initramfs; throws with the script's message on failure. */
export function buildGuest(): string {
  for (const tool of ['qemu-system-x86_64', 'apt-get', 'dpkg-deb', 'cpio', 'depmod', 'xz']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`the device lab needs ${tool}: run bash .ci/setup (it installs qemu-system-x86, cpio, kmod, xz-utils, busybox-static)`)
  }
  const r = spawnSync('bash', [join(PROJECT, 'scripts/lab/build-guest.sh')], {encoding: 'utf8', timeout: 600_000})
  if (r.status !== 0) throw new Error(`scripts/lab/build-guest.sh failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(-2000)}`)
  return r.stdout.trim().split('\n').at(-1)!
}

export class Lab {
  readonly dir: string
  readonly shareDir: string
  bootMs = 0
  private sock: Socket | null = null
  private buf = ''
  private nextId = 1
  private waiters = new Map<number, (r: LabResult) => void>()
  private ready: (() => void) | null = null
  private pid: number | null = null

  private constructor(dir: string) {
    this.dir = dir
    this.shareDir = join(dir, 'share')
  }

  /** Build if needed, boot, and wait until the agent answers. */
  static async start(opts: LabOptions = {}): Promise<Lab> {
    const cache = buildGuest()
    const base = process.env.PTS_LAB_RUN_DIR ?? tmpdir()
    mkdirSync(base, {recursive: true})
    const lab = new Lab(mkdtempSync(join(base, 'pts-lab-')))
    running.add(lab)
    try {
      await lab.boot(cache, opts)
    } catch (e) {
      lab.killNow()
      throw e
    }
    return lab
  }

  private async boot(cache: string, opts: LabOptions): Promise<void> {
    const d = this.dir
    mkdirSync(this.shareDir)
    const img = (n: string, mib: number) => { const p = join(d, `${n}.img`); writeFileSync(p, ''); truncateSync(p, mib * 1024 * 1024); return p }
    const nvme = img('nvme', opts.nvmeMiB ?? 1024), scsi = img('scsi', opts.scsiMiB ?? 256), sata = img('sata', opts.sataMiB ?? 256)
    // 9p shares: the project at its own path, its node_modules (a symlink in a worktree) and a read-write folder
    const shares: [string, string, 'ro' | 'rw'][] = [['proj', PROJECT, 'ro'], ['out', this.shareDir, 'rw']]
    const nm = join(PROJECT, 'node_modules')
    if (existsSync(nm)) { const real = realpathSync(nm); if (!real.startsWith(PROJECT + '/')) shares.push(['nm', real, 'ro']) }
    const fsdev = (tag: string, path: string, ro: boolean) => ['-fsdev', `local,id=${tag},path=${path},security_model=none,multidevs=remap${ro ? ',readonly=on' : ''}`, '-device', `virtio-9p-pci,fsdev=${tag},mount_tag=${tag}`]
    const drive = (id: string, file: string) => ['-drive', `file=${file},if=none,id=${id},format=raw,cache=writeback,discard=unmap`]
    const append = ['console=ttyS0', 'quiet', 'panic=-1', ...CLOCK_ARGS, 'rdinit=/init', `pts.agent=${PROJECT}/scripts/lab/agent.mjs`, ...shares.map(([t, p, m]) => `pts.share=${t}:${p}:${m}`)].join(' ')
    const args = [
      ...(process.env.PTS_LAB_MONITOR ? ['-monitor', `unix:${join(d, 'monitor.sock')},server=on,wait=off`] : []),
      '-machine', 'q35', '-accel', `tcg,tb-size=${TB_MIB}`, '-m', String(opts.memMiB ?? 768), '-smp', '2',
      '-nodefaults', '-no-user-config', '-display', 'none', '-vga', 'none', '-no-reboot',
      '-serial', `file:${join(d, 'console.log')}`, '-pidfile', join(d, 'qemu.pid'), '-daemonize',
      '-kernel', join(cache, 'vmlinux'), '-initrd', join(cache, 'initrd.gz'), '-append', append,
      ...fsdev('usr', '/usr', true), ...fsdev('etc', '/etc', true),
      ...shares.flatMap(([t, p, m]) => fsdev(t, p, m === 'ro')),
      '-device', 'virtio-rng-pci', '-device', 'virtio-serial-pci', '-chardev', `socket,id=agent,path=${join(d, 'agent.sock')},server=on,wait=off`, '-device', 'virtserialport,chardev=agent,name=agent',
      ...drive('nvm', nvme), '-device', `nvme,id=nvme0,serial=${LAB_SERIALS.nvme}`, '-device', 'nvme-ns,drive=nvm,nsid=1',
      ...drive('scs', scsi), '-device', 'virtio-scsi-pci,id=vscsi', '-device', `scsi-hd,drive=scs,bus=vscsi.0,serial=${LAB_SERIALS.scsi},vendor=PTSLAB,product=${LAB_MODELS.scsi},wwn=0x5000c500a1b2c3d4,rotation_rate=1`,
      ...drive('sat', sata), '-device', `ide-hd,drive=sat,bus=ide.0,serial=${LAB_SERIALS.sata},model=${LAB_MODELS.sata},wwn=0x5000c500a1b2c3d5,rotation_rate=1`,
    ]
    const t0 = Date.now()
    // nice(1) execs QEMU, so its -daemonize child and every thread it starts run at that value (root may lower it)
    const q = spawnSync('nice', ['-n', String(opts.nice ?? LAB_NICE), 'qemu-system-x86_64', ...args], {encoding: 'utf8', timeout: 60_000})
    if (q.status !== 0) throw new Error(`qemu-system-x86_64 did not start (exit ${q.status}): ${(q.stderr || q.error?.message || '').trim()}`)
    this.pid = Number(readFileSync(join(d, 'qemu.pid'), 'utf8').trim())
    const timeout = opts.bootTimeoutMs ?? 180_000
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`the lab guest did not answer within ${timeout / 1000} s; its console:\n${this.console().slice(-3000)}`)), timeout)
      this.ready = () => { clearTimeout(deadline); resolve() }
      const tryConnect = () => {
        if (!this.alive()) { clearTimeout(deadline); reject(new Error(`the lab guest stopped while booting; its console:\n${this.console().slice(-3000)}`)); return }
        const s = connect(join(d, 'agent.sock'))
        s.once('error', () => setTimeout(tryConnect, 200))
        s.once('connect', () => { this.sock = s; s.setEncoding('utf8'); s.on('data', (c: string) => this.onData(c)) })
      }
      tryConnect()
    })
    this.bootMs = Date.now() - t0
  }

  private onData(chunk: string): void {
    this.buf += chunk
    let i: number
    while ((i = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, i)
      this.buf = this.buf.slice(i + 1)
      let m: {id: number; ready?: boolean; code: number | null; signal: string | null; timedOut: boolean; ms: number; stdout: string; stderr: string}
      try { m = JSON.parse(line) } catch { continue }
      if (m.ready) { this.ready?.(); this.ready = null; continue }
      const w = this.waiters.get(m.id)
      if (!w) continue
      this.waiters.delete(m.id)
      w({code: m.code, signal: m.signal, timedOut: m.timedOut, ms: m.ms, stdout: Buffer.from(m.stdout, 'base64').toString('utf8'), stderr: Buffer.from(m.stderr, 'base64').toString('utf8')})
    }
  }

  /** Run `cmd` under /bin/sh -c in the guest (cwd: the project); the whole process group is killed at the timeout. */
  exec(cmd: string, opts: {timeoutMs?: number; env?: Record<string, string>; cwd?: string} = {}): Promise<LabResult> {
    if (!this.sock) return Promise.reject(new Error('the lab guest is not running'))
    const id = this.nextId++
    const timeoutMs = opts.timeoutMs ?? 120_000
    return new Promise((resolve, reject) => {
      const guard = setTimeout(() => { this.waiters.delete(id); reject(new Error(`the lab guest gave no answer to "${cmd}" within ${(timeoutMs + 30_000) / 1000} s`)) }, timeoutMs + 30_000)
      this.waiters.set(id, r => { clearTimeout(guard); resolve(r) })
      this.sock!.write(JSON.stringify({id, cmd, timeoutMs, env: opts.env, cwd: opts.cwd ?? PROJECT}) + '\n')
    })
  }

  /** exec, and throw with the output unless the exit code is 0. */
  async ok(cmd: string, opts: {timeoutMs?: number} = {}): Promise<string> {
    const r = await this.exec(cmd, opts)
    if (r.code !== 0) throw new Error(`guest command failed (exit ${r.code}${r.timedOut ? ', timed out' : ''}): ${cmd}\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`)
    return r.stdout
  }

  /** Run pts (the built dist/, as installed) in the guest. */
  pts(args: string, opts: {timeoutMs?: number; env?: Record<string, string>} = {}): Promise<LabResult> {
    return this.exec(`node ${PROJECT}/bin/run.js ${args}`, {timeoutMs: opts.timeoutMs ?? 300_000, env: {NO_COLOR: '1', ...opts.env}})
  }

  /** Run a Node ES module (its text) in the guest: written to the shared folder, so no shell quoting. */
  node(script: string, opts: {timeoutMs?: number} = {}): Promise<LabResult> {
    const file = join(this.shareDir, `script-${this.nextId}.mjs`)
    writeFileSync(file, script)
    return this.exec(`node ${file}`, opts)
  }

  console(): string {
    try { return readFileSync(join(this.dir, 'console.log'), 'utf8') } catch { return '' }
  }

  alive(): boolean {
    if (this.pid === null) return false
    try { process.kill(this.pid, 0); return true } catch { return false }
  }

  /** Power the guest off (agent), wait for QEMU to exit, kill it if it does not, remove its folder. */
  async stop(): Promise<void> {
    if (this.sock && this.alive()) {
      const id = this.nextId++
      this.sock.write(JSON.stringify({id, op: 'poweroff'}) + '\n')
      const t0 = Date.now()
      while (this.alive() && Date.now() - t0 < 15_000) await new Promise(r => setTimeout(r, 100))
    }
    this.killNow()
  }

  /** Synchronous: SIGKILL QEMU by its pid if still running, close the socket, remove the folder. */
  killNow(): void {
    if (this.alive()) { try { process.kill(this.pid!, 'SIGKILL') } catch { /* gone */ } }
    this.sock?.destroy()
    this.sock = null
    running.delete(this)
    rmSync(this.dir, {recursive: true, force: true})
  }
}
