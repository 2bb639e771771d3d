"""A real PostgreSQL server for the fleet tests: Debian's initdb and pg_ctl,
as the postgres user, in a temporary directory, on a loopback port of
21500-21509.  Host connections need a password (scram-sha-256), given to
rdmadoctor through PGPASSFILE only.  The server is stopped when the test
ends, also on failure (stop() from a finally, and atexit).

Standard library only."""
import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

PASSWORD = "fleet-test-password"
PORTS = range(21500, 21510)


def bindir():
    """The directory of initdb and pg_ctl, or None when PostgreSQL is not here."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return os.path.dirname(found[-1])
    p = shutil.which("initdb")
    return os.path.dirname(os.path.realpath(p)) if p else None


def _free(port):
    """No server listens there.  SO_REUSEADDR, as PostgreSQL itself binds:
    a port a stopped server left in TIME_WAIT is free to it."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


class Server:
    def __init__(self, parent):
        self.bin = bindir()
        if not self.bin:
            raise RuntimeError("no PostgreSQL here (apt-get install postgresql)")
        self.dir = tempfile.mkdtemp(prefix="rd-fleet-pg-", dir=parent)
        self.data = os.path.join(self.dir, "data")
        self.port = None
        self.passfile = os.path.join(self.dir, "pgpass")
        self.user = "postgres"
        pw = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if pw:
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            os.chmod(parent, 0o755)
        pwfile = os.path.join(self.dir, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if pw:
            os.chown(pwfile, pw.pw_uid, pw.pw_gid)
        self._as_pg([os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "postgres",
                     "--pwfile", pwfile, "--auth-local=trust", "--auth-host=scram-sha-256",
                     "-E", "UTF8", "--locale=C.UTF-8"])
        with open(self.passfile, "w") as f:
            f.write("127.0.0.1:*:*:postgres:%s\n" % PASSWORD)
        os.chmod(self.passfile, 0o600)
        atexit.register(self.stop)
        self.start()

    def _as_pg(self, cmd, check=True, **kw):
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
                           check=False, **kw)
        if check and p.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), p.stdout.decode(errors="replace")))
        return p

    def start(self):
        last = None
        # a restart after kill(): the same port, a few tries while the
        # killed server's last backends notice and let go of its shared
        # memory (a new postmaster refuses to start while one is attached)
        ports = [self.port] * 20 if self.port else [p for p in PORTS if _free(p)]
        for n, port in enumerate(ports):
            if self.port and n:
                time.sleep(0.5)
            p = self._as_pg([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-w", "-t", "60",
                             "-l", os.path.join(self.dir, "log"), "-o",
                             "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=on "
                             "-c synchronous_commit=on" % (port, self.dir), "start"], check=False)
            if p.returncode == 0:
                self.port = port
                return
            last = p.stdout.decode(errors="replace")
            try:	# the server's own words, for whoever reads the failure
                with open(os.path.join(self.dir, "log"), errors="replace") as f:
                    last += "".join(f.readlines()[-5:])
            except OSError:
                pass
        raise RuntimeError("cannot start PostgreSQL on 21500-21509: %s" % last)

    def kill(self):
        """kill -9 the postmaster and its backends: a crash."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            pid = int(f.readline())
        # its children by their parent's id, read from /proc
        kids = []
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open("/proc/%s/stat" % d) as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                            kids.append(int(d))
                except (OSError, ValueError, IndexError):
                    pass
        os.kill(pid, 9)
        for k in kids:
            try:
                os.kill(k, 9)
            except OSError:
                pass
        for _ in range(100):
            if not os.path.exists("/proc/%d" % pid):
                break
            time.sleep(0.05)
        # backends whose postmaster is gone end themselves; wait for them
        time.sleep(0.5)
        pidfile = os.path.join(self.data, "postmaster.pid")
        if os.path.exists(pidfile):
            os.unlink(pidfile)

    def stop(self):
        if os.path.isdir(self.data):
            self._as_pg([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate",
                         "-w", "stop"], check=False)

    def env(self):
        return {"PGPASSFILE": self.passfile}

    def uri(self, db):
        return "postgresql://postgres@127.0.0.1:%d/%s" % (self.port, db)

    def psql(self, db, sql):
        """Rows of one SQL statement, as lists of text (psql -At)."""
        p = subprocess.run(["psql", "-X", "-At", "-F", "\t", "-h", "127.0.0.1", "-p",
                            str(self.port), "-U", "postgres", "-d", db, "-c", sql],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                           env=dict(os.environ, **self.env()), check=False)
        if p.returncode != 0:
            raise RuntimeError("psql %s: %s" % (sql, p.stderr.decode(errors="replace")))
        return [line.split("\t") for line in p.stdout.decode().splitlines()]

    def new_db(self, name):
        self.psql("postgres", "CREATE DATABASE %s" % name)
        return self.uri(name)


def main(argv):
    """pgserver.py start DIR: a server that outlives this process (for the
    bench), printing "PORT PGPASSFILE"; pgserver.py stop DIR stops it."""
    if len(argv) == 3 and argv[1] == "start":
        s = Server(argv[2])
        atexit.unregister(s.stop)
        with open(os.path.join(argv[2], "pgserver.data"), "w") as f:
            f.write(s.data + "\n")
        print(s.port, s.passfile)
        return 0
    if len(argv) == 3 and argv[1] == "stop":
        with open(os.path.join(argv[2], "pgserver.data")) as f:
            data = f.read().strip()
        cmd = [os.path.join(bindir(), "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        return subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False).returncode
    print("usage: pgserver.py start|stop DIR")
    return 2


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
