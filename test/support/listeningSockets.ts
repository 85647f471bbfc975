/**
 * The TCP sockets a process and its descendants listen on, read from Linux's
 * /proc (what `ss -ltnp` shows): /proc/net/tcp{,6} give each listening socket's
 * address and inode, /proc/<pid>/fd links name the inodes a process holds.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ListeningSocket {
  pid: number;
  command: string;
  address: string;
  port: number;
}

const LISTEN = '0A';

/** `0100007F` (little-endian IPv4) or 32 hex digits (IPv6, four little-endian words). */
export function decodeProcAddress(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    const chunk = hex.slice(word, word + 8);
    for (let i = 6; i >= 0; i -= 2) bytes.push(Number.parseInt(chunk.slice(i, i + 2), 16));
  }
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
  if (mapped) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** 127.0.0.0/8, ::1, or IPv4 loopback carried in an IPv6 socket. */
export function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\./.test(address) || address === '::1';
}

function listeningByInode(): Map<string, { address: string; port: number }> {
  const sockets = new Map<string, { address: string; port: number }>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local = '', , state, , , , , , inode = ''] = fields.slice(1);
      if (state !== LISTEN) continue;
      const [hexAddress = '', hexPort = ''] = local.split(':');
      sockets.set(inode, { address: decodeProcAddress(hexAddress), port: Number.parseInt(hexPort, 16) });
    }
  }
  return sockets;
}

/** `pid` and every process below it. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of stat is the parent; the command (field 2) may hold spaces, so split after its ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [root];
  for (const pid of tree) tree.push(...(children.get(pid) ?? []));
  return tree;
}

/** Every TCP socket in LISTEN state held by `root` or its descendants. */
export function listeningSocketsOf(root: number = process.pid): ListeningSocket[] {
  const listening = listeningByInode();
  const found: ListeningSocket[] = [];
  for (const pid of processTree(root)) {
    let fds: string[] = [];
    let command = '';
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
      command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const socket = inode ? listening.get(inode) : undefined;
      if (socket) found.push({ pid, command, ...socket });
    }
  }
  return found;
}
