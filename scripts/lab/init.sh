#!/bb/busybox sh
# /init of the device lab's guest (scripts/lab/build-guest.sh packs it). Loads the drive and 9p
# modules, mounts the host's /usr and /etc read-only and the shares named on the kernel command
# line (pts.share=TAG:PATH:ro|rw), then runs the command agent (pts.agent=PATH, a Node script from
# a share). When the agent ends the guest powers off.
/bb/busybox --install -s /bb
export PATH=/bb
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# one line of load.list per dependency level: each line's modules load in parallel
while read -r line; do
  for m in $line; do insmod "/bb/modules/$m" 2>/dev/null & done
  wait
done < /bb/modules/load.list
opts=trans=virtio,version=9p2000.L,cache=loose,msize=512000
mount -t 9p -o "$opts,ro" usr /usr || echo "lab-init: cannot mount /usr"
mount -t 9p -o "$opts,ro" etc /etc || echo "lab-init: cannot mount /etc"
for d in /tmp /run /var /root /mnt; do mount -t tmpfs tmpfs "$d"; done
mkdir -p /run/lock /var/tmp /var/lib
agent=""
for w in $(cat /proc/cmdline); do
  case "$w" in
    pts.share=*)
      v="${w#pts.share=}"; tag="${v%%:*}"; rest="${v#*:}"; path="${rest%:*}"; mode="${rest##*:}"
      mkdir -p "$path"
      c=""; [ "$mode" = ro ] && c=",cache=loose"
      mount -t 9p -o "trans=virtio,version=9p2000.L,msize=512000,$mode$c" "$tag" "$path" || echo "lab-init: cannot mount $tag on $path" ;;
    pts.agent=*) agent="${w#pts.agent=}" ;;
  esac
done
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/bb HOME=/root TERM=dumb
echo "lab-init: ready after $(cut -d' ' -f1 /proc/uptime) s"
/usr/bin/node "$agent" || echo "lab-init: the agent ended with exit $?"
sync
poweroff -f
