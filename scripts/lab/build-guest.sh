#!/usr/bin/env bash
# Builds the device lab's guest once: an uncompressed Debian kernel (booted through its PVH entry)
# and a small initramfs (static busybox, the kernel modules the three drive controllers and 9p
# need, and /init). Nothing is installed on the host and nothing is written into the project:
# everything goes to $PTS_LAB_CACHE (default /var/cache/pts-lab). A second run with the same
# kernel package and the same /init is a no-op. The guest mounts the host's /usr and /etc read-only
# over 9p, so the host's own tools (nvme-cli, sg3-utils, sdparm, hdparm, smartctl, fio, node) run
# in it unchanged; .ci/setup installs them.
# Prints the cache folder on success.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${PTS_LAB_CACHE:-/var/cache/pts-lab}"
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9

kpkg="$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)"
[ -n "$kpkg" ] || { echo "build-guest: cannot resolve the Debian kernel package (apt-cache depends linux-image-amd64 gave none; run apt-get update)" >&2; exit 1; }
stamp="$kpkg $(sha256sum "$here/init.sh" "$0" | sha256sum | cut -c1-16)"
if [ -s "$cache/vmlinux" ] && [ -s "$cache/initrd.gz" ] && [ "$(cat "$cache/stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "$cache"; exit 0
fi
for t in busybox-static:/bin/busybox cpio:cpio kmod:modprobe xz-utils:xz; do
  command -v "${t#*:}" >/dev/null || { echo "build-guest: ${t#*:} is missing: apt-get install ${t%%:*} (bash .ci/setup installs it)" >&2; exit 1; }
done
bb=/bin/busybox  # busybox-static's; the guest has no libc until /usr is mounted

work="$(mktemp -d "$cache/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"  # apt-get download writes as the _apt user
cd "$work"
apt-get download -q "$kpkg" >/dev/null
dpkg-deb -x ./*.deb root
kver="${kpkg#linux-image-}"
depmod -b "$work/root" "$kver"  # the package ships no modules.dep (made at install time)
vmlinuz="root/boot/vmlinuz-$kver"
# the kernel's scripts/extract-vmlinux: find the xz stream inside the bzImage and unpack it
pos="$(LC_ALL=C grep -aboP '\xfd7zXZ\x00' "$vmlinuz" | head -n1 | cut -d: -f1)"
tail -c +"$((pos + 1))" "$vmlinuz" | xz -dc > vmlinux 2>/dev/null || true
head -c 4 vmlinux | grep -q ELF || { echo "build-guest: no ELF kernel inside $vmlinuz" >&2; exit 1; }

mkdir -p initrd/bb/modules initrd/dev initrd/proc initrd/sys initrd/usr initrd/etc initrd/tmp initrd/run initrd/var initrd/mnt initrd/root
for d in bin sbin lib lib64; do ln -s "usr/$d" "initrd/$d"; done  # merged /usr, as on the host
cp "$bb" initrd/bb/busybox
mods=(virtio_pci virtio_console virtio_rng 9p 9pnet_virtio nvme virtio_scsi sd_mod sg ahci ext4)
# load.list: one line per dependency level (a module's dependencies are all on earlier lines), so
# /init loads each line's modules in parallel and never retries
declare -A level=()
while read -r ko; do
  base="$(basename "$ko")"; base="${base%.xz}"; name="${base%.ko}"; name="${name//-/_}"
  case "$ko" in *.xz) xz -dc "$ko" > "initrd/bb/modules/$base" ;; *) cp "$ko" "initrd/bb/modules/$base" ;; esac
  lv=0
  for dep in $(modinfo -F depends "initrd/bb/modules/$base" | tr , ' '); do
    dep="${dep//-/_}"; [ "${level[$dep]:-0}" -ge "$lv" ] && lv=$(( ${level[$dep]:-0} + 1 ))
  done
  level[$name]=$lv
  echo "$lv $base"
done < <(for m in "${mods[@]}"; do
  modprobe --show-depends -d "$work/root" -S "$kver" "$m" | awk '$1=="insmod"{print $2}'
done | awk '!seen[$0]++') | sort -n | awk '{a[$1]=a[$1] " " $2} END {for (i = 0; i in a; i++) print substr(a[i], 2)}' > initrd/bb/modules/load.list
cp "$here/init.sh" initrd/init
chmod +x initrd/init
(cd initrd && find . | cpio -o -H newc --quiet | gzip -1) > initrd.gz
mv vmlinux "$cache/vmlinux"
mv initrd.gz "$cache/initrd.gz"
echo "$stamp" > "$cache/stamp"
echo "$cache"
