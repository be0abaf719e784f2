/**
 * Captures the device lab's parser fixtures (test/fixtures/devices/lab/): boots the lab guest
 * (test/helpers/lab.ts), runs each tool against the emulated NVMe, SCSI and SATA drives and writes
 * stdout (and, where a tool lies in it, the exit status) to one small text file per command.
 * Run as root: node --import tsx scripts/lab/capture-fixtures.ts
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Lab} from '../../test/helpers/lab.js'

const OUT = fileURLToPath(new URL('../../test/fixtures/devices/lab/', import.meta.url))
const CAPTURES: Array<[file: string, cmd: string]> = [
  ['nvme-id-ctrl.json', 'nvme id-ctrl /dev/nvme0 -o json'],
  ['nvme-id-ns.json', 'nvme id-ns /dev/nvme0n1 -o json'],
  ['nvme-get-feature-6-on.txt', 'nvme set-feature /dev/nvme0 -f 6 -v 1 >/dev/null && nvme get-feature /dev/nvme0 -f 6'],
  ['nvme-get-feature-6-off.txt', 'nvme set-feature /dev/nvme0 -f 6 -v 0 >/dev/null && nvme get-feature /dev/nvme0 -f 6; nvme set-feature /dev/nvme0 -f 6 -v 1 >/dev/null'],
  ['nvme-get-feature-6-H.txt', 'nvme get-feature /dev/nvme0 -f 6 -H'],
  ['nvme-set-feature-6-namespace.txt', 'nvme set-feature /dev/nvme0n1 -f 6 -v 0 2>&1'],
  ['smartctl-nvme.json', 'smartctl -i -j /dev/nvme0n1'],
  ['sg_inq-scsi.txt', 'sg_inq /dev/sda'],
  ['sdparm-get-wce-scsi.txt', 'sdparm --get=WCE /dev/sda'],
  ['sg_opcodes-sanitize-scsi.txt', 'sg_opcodes --opcode=0x48,2 /dev/sda 2>&1'],
  ['smartctl-scsi.json', 'smartctl -i -j /dev/sda'],
  ['hdparm-I-sata.txt', 'hdparm -I /dev/sdb'],
  ['hdparm-W-sata.txt', 'hdparm -W /dev/sdb'],
  ['sg_inq-sata.txt', 'sg_inq /dev/sdb'],
  ['sdparm-get-wce-sata.txt', 'sdparm --get=WCE /dev/sdb'],
  ['smartctl-sata.json', 'smartctl -i -j /dev/sdb'],
]

const lab = await Lab.start()
try {
  const exits: string[] = []
  for (const [file, cmd] of CAPTURES) {
    const r = await lab.exec(cmd, {env: {LC_ALL: 'C'}})
    writeFileSync(join(OUT, file), r.stdout)
    exits.push(`${file}\texit ${r.code}\t${cmd}`)
  }
  writeFileSync(join(OUT, 'exit-codes.tsv'), exits.join('\n') + '\n')
  const v = await lab.exec('uname -r; nvme version; sg_inq --version 2>&1; sdparm --version 2>&1 | head -1; hdparm -V; smartctl -V | head -1; qemu-system-x86_64 --version 2>/dev/null | head -1')
  writeFileSync(join(OUT, 'versions.txt'), v.stdout + v.stderr)
} finally {
  await lab.stop()
}
