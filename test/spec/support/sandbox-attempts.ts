// The sandbox attacks of containment-sandbox.test.ts: each a bash command line an agent runs, and what must
// hold for what it saw. Shared by the scripted-model run (as root, through a real `nexus serve`) and by
// sandbox-attacks.ts (bundled, run as an unprivileged user).
export interface AttackTargets {
  /** Listening unix sockets of the host (in /var/tmp, /run). */
  unix: string[];
  /** A loopback HTTP server answering BRIDGE-OK. */
  httpPort: number;
  /** The kernel's pid on the host (its environ holds NEXUS_ATTACK_MARK). */
  kernelPid: number;
  node: string;
}

export const NETWORK = ['127.0.0.1'];
const py = (code: string) => `python3 -c '${code}' 2>&1`;

export const attempts = ({ unix, httpPort, kernelPid, node }: AttackTargets): Record<string, string> => ({
  status: `grep -E '^(CapEff|NoNewPrivs|Seccomp):' /proc/self/status`,
  umountProc: `cd / && umount -l /proc 2>&1; echo "umount=$?"; cat /proc/${kernelPid}/environ 2>/dev/null | tr '\\0' '\\n' | grep -c NEXUS_ATTACK_MARK`,
  nsenter: `nsenter -t 1 -m -- echo NSENTERED 2>&1; nsenter -t ${kernelPid} -m -- echo NSENTERED 2>&1; true`,
  unix: unix
    .map(
      (p) =>
        `${node} -e "require('net').connect('${p}').on('connect',()=>{console.log('CONNECTED ${p}');process.exit(0)}).on('error',e=>console.log('refused ${p}',e.code))"`,
    )
    .join('; '),
  ptrace: py('import ctypes; l=ctypes.CDLL(None,use_errno=True); r=l.syscall(101,0,0,0,0); print("ptrace", r, ctypes.get_errno())'),
  unshare: `unshare -U true 2>&1; echo "unshare=$?"; unshare -m true 2>&1; echo "unshare-m=$?"`,
  keyctl: py('import ctypes; l=ctypes.CDLL(None,use_errno=True); r=l.syscall(250,0,0,0,0); print("keyctl", r, ctypes.get_errno())'),
  runDir: `ls -A /run | wc -l; ls -A /var/run | wc -l`,
  bridge: `curl -sS -m 10 http://127.0.0.1:${httpPort}/ 2>&1`,
  // The bridge (socat) runs outside the AF_UNIX filter: the command must not open its memory.
  bridgeMem: `for p in $(ls /proc | grep -E '^[0-9]+$'); do [ "$(cat /proc/$p/comm 2>/dev/null)" = socat ] && { ( exec 9</proc/$p/mem ) 2>/dev/null && echo "MEM-OPEN $p" || echo "mem-refused $p"; }; done; true`,
});
