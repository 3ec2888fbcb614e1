// The base seccomp filter bubblewrap installs on the whole sandbox (Linux): a classic-BPF program, built here
// so no compiler is needed where NEXUS runs. Pure: unit-tested on its bytes and by running it in bwrap.
//   - a process of another architecture (or the x32 ABI on x86-64) is killed: its syscall numbers differ,
//     so a deny list written for this one would not hold for it;
//   - the listed calls fail with EPERM: reading or steering another process (ptrace, process_vm_*,
//     pidfd_getfd, kcmp), the kernel keyring, bpf, perf, kexec, modules, userfaultfd, file handles, swap,
//     reboot, io_uring (its IORING_OP_SOCKET would make the sockets the second filter refuses).
// Mounts, unshare and setns are refused by the second filter (apply-seccomp's 'namespaces'), which goes on
// the agent's command only: apply-seccomp itself needs them to build the command's own pid namespace.

export type SeccompArch = 'x64' | 'arm64';

const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
const X32_BIT = 0x40000000;

/** The refused calls by name, with their numbers on each architecture (null: the call does not exist there). */
export const DENIED: Readonly<Record<string, Readonly<Record<SeccompArch, number | null>>>> = {
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  pidfd_getfd: { x64: 438, arm64: 438 },
  kcmp: { x64: 312, arm64: 272 },
  process_madvise: { x64: 440, arm64: 440 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  bpf: { x64: 321, arm64: 280 },
  perf_event_open: { x64: 298, arm64: 241 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  userfaultfd: { x64: 323, arm64: 282 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  reboot: { x64: 169, arm64: 142 },
  acct: { x64: 163, arm64: 89 },
  syslog: { x64: 103, arm64: 116 },
  quotactl: { x64: 179, arm64: 60 },
  vhangup: { x64: 153, arm64: 58 },
  iopl: { x64: 172, arm64: null },
  ioperm: { x64: 173, arm64: null },
  lookup_dcookie: { x64: 212, arm64: 18 },
  fanotify_init: { x64: 300, arm64: 262 },
  io_uring_setup: { x64: 425, arm64: 425 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
};

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const OFF_NR = 0;
const OFF_ARCH = 4;

type Insn = [code: number, jt: number, jf: number, k: number];

/** The architecture NEXUS runs on, if a filter exists for it. */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

/** The base filter for `arch` as bwrap's `--seccomp FD` reads it: struct sock_filter[], little-endian. */
export function baseSeccompFilter(arch: SeccompArch): Buffer {
  const nrs = [...new Set(Object.values(DENIED).flatMap((n) => (n[arch] === null ? [] : [n[arch]!])))];
  const prog: Insn[] = [
    [LD_W_ABS, 0, 0, OFF_ARCH],
    [JEQ_K, 1, 0, AUDIT_ARCH[arch]],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, OFF_NR],
  ];
  if (arch === 'x64') prog.push([JGE_K, 0, 1, X32_BIT], [RET_K, 0, 0, RET_KILL_PROCESS]);
  // Each listed number jumps forward to the EPERM return at the end; the rest fall through to ALLOW.
  nrs.forEach((nr, i) => prog.push([JEQ_K, nrs.length - i, 0, nr]));
  prog.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO | EPERM]);
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}

/** What the filter answers for a call (an interpreter of the emitted program, for tests). */
export function evaluateFilter(filter: Buffer, data: { arch: number; nr: number }): 'allow' | 'eperm' | 'kill' | 'other' {
  let acc = 0;
  for (let pc = 0; pc * 8 < filter.length; pc++) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    if (code === LD_W_ABS) acc = k === OFF_ARCH ? data.arch >>> 0 : k === OFF_NR ? data.nr >>> 0 : 0;
    else if (code === JEQ_K) pc += acc === k ? jt : jf;
    else if (code === JGE_K) pc += acc >= k ? jt : jf;
    else if (code === RET_K) return k === RET_ALLOW ? 'allow' : k === (RET_ERRNO | EPERM) ? 'eperm' : k === RET_KILL_PROCESS ? 'kill' : 'other';
    else return 'other';
  }
  return 'other';
}

export const AUDIT_ARCHES = AUDIT_ARCH;
