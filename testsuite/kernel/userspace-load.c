/* userspace-load - the allocation-heavy part of check-kernel-full's
   userspace run: a static program the initramfs's /init starts after
   KUnit.  Each phase drives kernel paths that allocate (tmpfs inodes and
   pages, pipe buffers, epoll items, socket buffers, seq_file reads of
   /proc and /sys) and checks what comes back, so that a kernel whose
   allocations went wrong fails here even when it does not oops.

   Prints "kalloc-userspace: PHASE ok" or "kalloc-userspace: FAIL ..." per
   check and ends with "kalloc-userspace: load: N failures"; exit status 0
   only when N is 0.  Bounded: every phase has a fixed amount of work and
   an alarm ends the program if the kernel hangs.  */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <unistd.h>

static int failures;

static void
fail (const char *phase, const char *what)
{
  printf ("kalloc-userspace: FAIL %s: %s (errno %d: %s)\n", phase, what,
          errno, strerror (errno));
  fflush (stdout);
  failures++;
}

static void
passed (const char *phase, long count)
{
  printf ("kalloc-userspace: %s ok (%ld)\n", phase, count);
  fflush (stdout);
}

/* The byte at OFFSET of stream SEED: content every reader can check.  */
static unsigned char
pattern (unsigned seed, size_t offset)
{
  return (unsigned char) (seed * 131u + offset * 7u + (offset >> 9));
}

static void
fill (unsigned char *buf, size_t len, unsigned seed, size_t start)
{
  for (size_t i = 0; i < len; i++)
    buf[i] = pattern (seed, start + i);
}

static int
matches (const unsigned char *buf, size_t len, unsigned seed, size_t start)
{
  for (size_t i = 0; i < len; i++)
    if (buf[i] != pattern (seed, start + i))
      return 0;
  return 1;
}

/* Write (WRITING) or read all LEN bytes of BUF, through short transfers
   and signals: 0, or -1 on an error or an early end of file.  */
static int
transfer_all (int fd, unsigned char *buf, size_t len, int writing)
{
  while (len > 0)
    {
      ssize_t n = writing ? write (fd, buf, len) : read (fd, buf, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return -1;
      buf += n;
      len -= (size_t) n;
    }
  return 0;
}

static int
write_all (int fd, unsigned char *buf, size_t len)
{
  return transfer_all (fd, buf, len, 1);
}

static int
read_all (int fd, unsigned char *buf, size_t len)
{
  return transfer_all (fd, buf, len, 0);
}

/* Files on tmpfs: many sizes, rewritten, renamed, read back, removed.  */
static void
tmpfs_phase (const char *dir)
{
  static unsigned char buf[1 << 17], back[1 << 17];
  char path[256], path2[256];
  long files = 0;
  if (mkdir (dir, 0755) != 0 && errno != EEXIST)
    {
      fail ("tmpfs", "mkdir");
      return;
    }
  for (int round = 0; round < 3; round++)
    for (unsigned i = 0; i < 300; i++)
      {
        size_t len = ((size_t) i * 977u + round * 4099u) % sizeof buf;
        unsigned seed = i + 1000u * round;
        snprintf (path, sizeof path, "%s/f%u", dir, i);
        snprintf (path2, sizeof path2, "%s/g%u", dir, i);
        int fd = open (path, O_CREAT | O_TRUNC | O_RDWR, 0644);
        if (fd < 0)
          {
            fail ("tmpfs", "open");
            return;
          }
        fill (buf, len, seed, 0);
        if (write_all (fd, buf, len) != 0)
          fail ("tmpfs", "write");
        if (ftruncate (fd, (off_t) (len / 2)) != 0)
          fail ("tmpfs", "ftruncate");
        close (fd);
        if (rename (path, path2) != 0)
          fail ("tmpfs", "rename");
        fd = open (path2, O_RDONLY);
        if (fd < 0 || read_all (fd, back, len / 2) != 0
            || !matches (back, len / 2, seed, 0))
          fail ("tmpfs", "read back");
        if (fd >= 0)
          close (fd);
        if (round < 2 && unlink (path2) != 0)
          fail ("tmpfs", "unlink");
        files++;
      }
  for (unsigned i = 0; i < 300; i++)
    {
      snprintf (path2, sizeof path2, "%s/g%u", dir, i);
      if (unlink (path2) != 0)
        fail ("tmpfs", "final unlink");
    }
  if (rmdir (dir) != 0)
    fail ("tmpfs", "rmdir");
  passed ("tmpfs", files);
}

/* A child writes a long stream into a pipe; the parent polls and checks.  */
static void
pipe_phase (void)
{
  enum { total = 4 << 20 };
  static unsigned char buf[65536];
  int fds[2];
  if (pipe (fds) != 0)
    {
      fail ("pipe", "pipe");
      return;
    }
  fcntl (fds[1], F_SETPIPE_SZ, 1 << 20);
  pid_t child = fork ();
  if (child == 0)
    {
      close (fds[0]);
      for (size_t off = 0; off < total; off += sizeof buf)
        {
          fill (buf, sizeof buf, 7, off);
          if (write_all (fds[1], buf, sizeof buf) != 0)
            _exit (1);
        }
      _exit (0);
    }
  close (fds[1]);
  size_t off = 0;
  int ok = 1;
  while (off < total)
    {
      struct pollfd p = { fds[0], POLLIN, 0 };
      if (poll (&p, 1, 10000) != 1)
        {
          fail ("pipe", "poll");
          ok = 0;
          break;
        }
      ssize_t n = read (fds[0], buf, sizeof buf);
      if (n <= 0)
        {
          fail ("pipe", "read");
          ok = 0;
          break;
        }
      if (ok && !matches (buf, (size_t) n, 7, off))
        {
          fail ("pipe", "content");
          ok = 0;
        }
      off += (size_t) n;
    }
  close (fds[0]);
  int status;
  waitpid (child, &status, 0);
  if (ok && !(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    fail ("pipe", "writer");
  passed ("pipe", (long) off);
}

/* Many socket pairs in one epoll set: each write must wake exactly its
   own entry.  */
static void
epoll_phase (void)
{
  enum { pairs = 128, rounds = 40 };
  int sv[pairs][2];
  long events = 0;
  int ep = epoll_create1 (0);
  if (ep < 0)
    {
      fail ("epoll", "epoll_create1");
      return;
    }
  for (int i = 0; i < pairs; i++)
    {
      if (socketpair (AF_UNIX, SOCK_STREAM, 0, sv[i]) != 0)
        {
          fail ("epoll", "socketpair");
          return;
        }
      struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (unsigned) i };
      if (epoll_ctl (ep, EPOLL_CTL_ADD, sv[i][1], &ev) != 0)
        fail ("epoll", "epoll_ctl");
    }
  for (int r = 0; r < rounds; r++)
    {
      int which = (r * 37) % pairs;
      unsigned char b = (unsigned char) r, got;
      if (write (sv[which][0], &b, 1) != 1)
        fail ("epoll", "write");
      struct epoll_event out[8];
      int n = epoll_wait (ep, out, 8, 5000);
      if (n != 1 || out[0].data.u32 != (unsigned) which)
        fail ("epoll", "wrong readiness");
      if (read (sv[which][1], &got, 1) != 1 || got != b)
        fail ("epoll", "read");
      events += n;
    }
  for (int i = 0; i < pairs; i++)
    {
      epoll_ctl (ep, EPOLL_CTL_DEL, sv[i][1], NULL);
      close (sv[i][0]);
      close (sv[i][1]);
    }
  close (ep);
  passed ("epoll", events);
}

/* TCP over 127.0.0.1: a child connects several times and sends a stream
   the parent checks; then UDP datagrams; then a file descriptor passed
   over a UNIX socket.  */
static void
socket_phase (void)
{
  enum { conns = 16, per_conn = 256 << 10 };
  static unsigned char buf[16384];
  long bytes = 0;
  int ls = socket (AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = { .sin_family = AF_INET };
  socklen_t alen = sizeof a;
  a.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (ls < 0 || bind (ls, (struct sockaddr *) &a, sizeof a) != 0
      || listen (ls, 8) != 0 || getsockname (ls, (struct sockaddr *) &a, &alen) != 0)
    {
      fail ("tcp", "listen on 127.0.0.1 (is lo up?)");
      return;
    }
  pid_t child = fork ();
  if (child == 0)
    {
      for (int c = 0; c < conns; c++)
        {
          int s = socket (AF_INET, SOCK_STREAM, 0);
          if (s < 0 || connect (s, (struct sockaddr *) &a, sizeof a) != 0)
            _exit (1);
          for (size_t off = 0; off < per_conn; off += sizeof buf)
            {
              fill (buf, sizeof buf, (unsigned) c, off);
              if (write_all (s, buf, sizeof buf) != 0)
                _exit (1);
            }
          close (s);
        }
      _exit (0);
    }
  for (int c = 0; c < conns; c++)
    {
      int s = accept (ls, NULL, NULL);
      if (s < 0)
        {
          fail ("tcp", "accept");
          break;
        }
      size_t off = 0;
      while (off < per_conn)
        {
          ssize_t n = read (s, buf, sizeof buf);
          if (n <= 0)
            break;
          if (!matches (buf, (size_t) n, (unsigned) c, off))
            {
              fail ("tcp", "content");
              break;
            }
          off += (size_t) n;
        }
      if (off != per_conn)
        fail ("tcp", "short stream");
      bytes += (long) off;
      close (s);
    }
  close (ls);
  int status;
  waitpid (child, &status, 0);
  if (!(WIFEXITED (status) && WEXITSTATUS (status) == 0))
    fail ("tcp", "client");
  passed ("tcp", bytes);

  /* UDP: datagrams of many sizes to ourselves.  */
  int us = socket (AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in u = { .sin_family = AF_INET };
  socklen_t ulen = sizeof u;
  u.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  long grams = 0;
  if (us < 0 || bind (us, (struct sockaddr *) &u, sizeof u) != 0
      || getsockname (us, (struct sockaddr *) &u, &ulen) != 0)
    fail ("udp", "bind");
  else
    {
      for (unsigned i = 0; i < 500; i++)
        {
          size_t len = 1 + (i * 523u) % 8000u;
          fill (buf, len, i, 0);
          if (sendto (us, buf, len, 0, (struct sockaddr *) &u, sizeof u) != (ssize_t) len)
            {
              fail ("udp", "sendto");
              break;
            }
          ssize_t n = recv (us, buf, sizeof buf, 0);
          if (n != (ssize_t) len || !matches (buf, len, i, 0))
            {
              fail ("udp", "recv");
              break;
            }
          grams++;
        }
      close (us);
    }
  passed ("udp", grams);

  /* SCM_RIGHTS: pass a pipe's read end, read through the passed copy.  */
  int sp[2], pp[2];
  if (socketpair (AF_UNIX, SOCK_DGRAM, 0, sp) != 0 || pipe (pp) != 0)
    {
      fail ("scm_rights", "socketpair");
      return;
    }
  char cbuf[CMSG_SPACE (sizeof (int))];
  char one = 'x';
  struct iovec iov = { &one, 1 };
  struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
                      .msg_control = cbuf, .msg_controllen = sizeof cbuf };
  struct cmsghdr *cm = CMSG_FIRSTHDR (&m);
  cm->cmsg_level = SOL_SOCKET;
  cm->cmsg_type = SCM_RIGHTS;
  cm->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (cm), &pp[0], sizeof (int));
  if (sendmsg (sp[0], &m, 0) != 1)
    fail ("scm_rights", "sendmsg");
  memset (cbuf, 0, sizeof cbuf);
  m.msg_controllen = sizeof cbuf;
  int passed_fd = -1;
  if (recvmsg (sp[1], &m, 0) == 1 && (cm = CMSG_FIRSTHDR (&m)) != NULL
      && cm->cmsg_type == SCM_RIGHTS)
    memcpy (&passed_fd, CMSG_DATA (cm), sizeof (int));
  char got = 0;
  if (passed_fd < 0 || write (pp[1], "k", 1) != 1
      || read (passed_fd, &got, 1) != 1 || got != 'k')
    fail ("scm_rights", "passed descriptor");
  else
    passed ("scm_rights", 1);
  close (sp[0]);
  close (sp[1]);
  close (pp[0]);
  close (pp[1]);
  if (passed_fd >= 0)
    close (passed_fd);
}

/* Reading /proc and /sys: every readable regular file, bounded.  Files
   that block or that are not data are skipped.  */
static long walked, read_ok;

static int
skip_path (const char *path)
{
  static const char *const skip[] = {
    "/proc/kmsg", "/proc/kcore", "/proc/sysrq-trigger", "/proc/kpage",
    "/sys/kernel/debug", "/sys/kernel/tracing", "/sys/power/",
    "/sys/firmware/efi/efivars", "/proc/sys/vm/compact", "/proc/sys/vm/drop",
    "/sys/kernel/security",
    /* Linux 6.12's sysctl KUnit test registers "foo" with a table on its
       stack and never unregisters it: listing /proc/sys/foo after KUnit
       oopses in proc_sys_readdir () with or without kalloc.  */
    "/proc/sys/foo",
  };
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (strstr (path, skip[i]) == path)
      return 1;
  /* One process's files are enough; other processes come and go.  */
  if (strncmp (path, "/proc/", 6) == 0 && path[6] >= '0' && path[6] <= '9')
    return 1;
  return 0;
}

static int
visit (const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  static char buf[65536];
  (void) ftw;
  if (walked >= 30000)
    return FTW_STOP;
  if (type == FTW_D && skip_path (path))
    return FTW_SKIP_SUBTREE;
  if (type != FTW_F || !S_ISREG (st->st_mode) || skip_path (path)
      || !(st->st_mode & 0444))
    return 0;
  walked++;
  int fd = open (path, O_RDONLY | O_NONBLOCK);
  if (fd < 0)
    return 0;
  ssize_t n;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    ;
  if (n == 0)
    read_ok++;
  close (fd);
  return 0;
}

static void
procfs_phase (void)
{
  /* FTW_ACTIONRETVAL: a skipped directory is not even listed.  */
  nftw ("/proc/self/", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
  nftw ("/proc", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
  nftw ("/sys", visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
  if (read_ok == 0)
    fail ("proc-sys", "no file read");
  printf ("kalloc-userspace: proc-sys visited %ld files, read %ld to the end\n",
          walked, read_ok);
  passed ("proc-sys", read_ok);
}

static void
on_alarm (int sig)
{
  (void) sig;
  static const char msg[] = "kalloc-userspace: FAIL timeout\n";
  if (write (1, msg, sizeof msg - 1) < 0)
    _exit (3);
  _exit (2);
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "/tmp/kalloc-load";
  signal (SIGALRM, on_alarm);
  signal (SIGPIPE, SIG_IGN);
  alarm (1800);
  tmpfs_phase (dir);
  pipe_phase ();
  epoll_phase ();
  socket_phase ();
  procfs_phase ();
  printf ("kalloc-userspace: load: %d failures\n", failures);
  return failures != 0;
}
