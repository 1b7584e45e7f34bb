#!/usr/bin/python3
"""A stand-in for systemctl, for the executed tutorial runner only (test/support/tutorials/steps.ts).

The runner's Debian 13 root is a chroot without systemd (this machine cannot boot one: cgroups v1, and
PID 1 is not systemd), so a tutorial's `systemctl` steps are served by this program, copied over
/usr/bin/systemctl of the run's throwaway overlay and nowhere else. It reads the real unit files the
packages and the tutorial installed (/etc/systemd/system, /usr/lib/systemd/system, drop-ins in
NAME.d/*.conf, templates with %i) and does what systemd would with the parts that decide whether a step
works: User, Group (with the user's supplementary groups), Environment, EnvironmentFile (a missing file
fails the start unless prefixed with -), WorkingDirectory (missing: the start fails), RuntimeDirectory,
AmbientCapabilities (through setpriv), ExecStartPre/ExecStart/ExecStartPost/ExecReload/ExecStop with
their - prefix, $MAINPID, TimeoutStopSec, Type=simple,
exec, forking (PIDFile), oneshot (RemainAfterExit) and notify (a NOTIFY_SOCKET that waits for READY=1),
PartOf and ReloadPropagatedFrom, enable/disable as the [Install] symlinks. A process runs in a session of
its own; its output goes to /run/systemctl-shim/UNIT.log (the journal's place). What it does not do, and
says so where a tutorial would notice: sandboxing (Protect*, Private*, NoNewPrivileges), Restart=, socket
and timer activation, dependencies other than PartOf. An action it does not know exits 1 with a message,
so a step that needs one fails rather than passes by accident.
"""
import fnmatch
import glob
import grp
import os
import pwd
import re
import shlex
import signal
import socket
import subprocess
import sys
import time

STATE = "/run/systemctl-shim"
UNIT_DIRS = ["/etc/systemd/system", "/run/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system"]
LIST_KEYS = {
    "ExecStartPre", "ExecStart", "ExecStartPost", "ExecReload", "ExecStop", "ExecStopPost",
    "Environment", "EnvironmentFile", "PartOf", "ReloadPropagatedFrom", "WantedBy", "RequiredBy",
    "RuntimeDirectory", "Alias", "Also",
}


def die(message, code=1):
    print(message, file=sys.stderr)
    sys.exit(code)


def full_name(name):
    return name if "." in name.rsplit("/", 1)[-1] else name + ".service"


def find_file(unit):
    """The unit's file and, for a template instance, its instance name."""
    instance = ""
    candidates = [unit]
    if "@" in unit:
        prefix, rest = unit.split("@", 1)
        instance, suffix = rest.rsplit(".", 1)
        candidates.append(f"{prefix}@.{suffix}")
    for c in candidates:
        for d in UNIT_DIRS:
            path = os.path.join(d, c)
            if os.path.exists(path):
                # A unit symlinked to /dev/null is masked.
                if os.path.realpath(path) == "/dev/null":
                    die(f"Failed to start {unit}: Unit {unit} is masked.")
                return os.path.realpath(path), instance
    return None, instance


def parse(text, unit, instance, into):
    """Adds a unit file's settings to `into` ({section: {key: [values]}}), with specifiers expanded."""
    section = None
    pending = ""
    for raw in text.split("\n"):
        line = pending + raw.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            into.setdefault(section, {})
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        prefix = unit.split("@", 1)[0] if "@" in unit else unit.rsplit(".", 1)[0]
        value = (
            value.replace("%%", "\0").replace("%i", instance).replace("%I", instance.replace("-", "/"))
            .replace("%n", unit).replace("%N", unit.rsplit(".", 1)[0]).replace("%p", prefix).replace("\0", "%")
        )
        values = into.setdefault(section, {}).setdefault(key, [])
        if key in LIST_KEYS and value == "":
            values.clear()
        elif key in LIST_KEYS:
            values.append(value)
        else:
            values[:] = [value]


def load(unit):
    path, instance = find_file(unit)
    if not path:
        die(f"Unit {unit} not found.", 5)
    settings = {}
    parse(open(path).read(), unit, instance, settings)
    template = f"{unit.split('@')[0]}@.{unit.rsplit('.', 1)[1]}" if "@" in unit else None
    for d in UNIT_DIRS:
        for name in [n for n in (template, unit) if n]:
            for drop in sorted(glob.glob(os.path.join(d, name + ".d", "*.conf"))):
                parse(open(drop).read(), unit, instance, settings)
    settings["_path"] = path
    return settings


def get(settings, key, default=None, section="Service"):
    values = settings.get(section, {}).get(key)
    return values[-1] if values else default


def get_all(settings, key, section="Service"):
    return settings.get(section, {}).get(key, [])


def seconds(value, default):
    """A systemd time span ("90", "30s", "5min", "1h", "1min 30s", "infinity") in seconds."""
    units = {"": 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hr": 3600, "ms": 0.001}
    if not value:
        return default
    if value == "infinity":
        return float("inf")
    total = 0.0
    for number, unit in re.findall(r"([0-9.]+)\s*([a-z]*)", value):
        total += float(number) * units.get(unit, 1)
    return total


def pid_file(unit):
    return os.path.join(STATE, unit + ".pid")


def alive(pid):
    if pid <= 0:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main_pid(unit):
    try:
        return int(open(pid_file(unit)).read().strip() or "0")
    except (OSError, ValueError):
        return None


def is_active(unit):
    pid = main_pid(unit)
    if pid is None:
        return False
    # A oneshot with RemainAfterExit records 0: active with no process.
    return pid == 0 or alive(pid)


def environment(settings, unit, extra=None):
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    for value in get_all(settings, "Environment"):
        for word in shlex.split(value):
            k, _, v = word.partition("=")
            env[k] = v
    for value in get_all(settings, "EnvironmentFile"):
        optional = value.startswith("-")
        path = value.lstrip("-")
        if not os.path.exists(path):
            if optional:
                continue
            die(f"Job for {unit} failed: EnvironmentFile {path} does not exist (status=243/CREDENTIALS).")
        for line in open(path).read().split("\n"):
            line = line.strip()
            if not line or line[0] in "#;" or "=" not in line:
                continue
            k, _, v = line.partition("=")
            v = v.strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            env[k.strip().removeprefix("export ").strip()] = v
    user = get(settings, "User")
    if user:
        entry = pwd.getpwnam(user)
        env.update({"USER": user, "LOGNAME": user, "HOME": entry.pw_dir, "SHELL": entry.pw_shell})
    env.update(extra or {})
    return env


def with_capabilities(settings, argv):
    """AmbientCapabilities= (caddy binds port 80 as its own user): the command runs through setpriv, which keeps them."""
    caps = " ".join(get_all(settings, "AmbientCapabilities") or [get(settings, "AmbientCapabilities", "")]).split()
    user = get(settings, "User")
    if not caps or not user:
        return argv, credentials(settings)
    names = ",".join("+" + c.lower().removeprefix("cap_") for c in caps)
    group = get(settings, "Group") or grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name
    return ["setpriv", f"--reuid={user}", f"--regid={group}", "--init-groups", f"--inh-caps={names}",
            f"--ambient-caps={names}", "--", *argv], None


def command(line, env):
    """An Exec line: its prefixes (- ignores failure; @ + ! : are accepted) and argv with $VAR and ${VAR} expanded."""
    flags = ""
    while line and line[0] in "-@+!:":
        flags += line[0]
        line = line[1:]
    argv = []
    for word in shlex.split(line):
        if word.startswith("${") and word.endswith("}"):
            argv.append(env.get(word[2:-1], ""))
        elif word.startswith("$") and word[1:].replace("_", "a").isalnum():
            argv.extend(env.get(word[1:], "").split())
        else:
            argv.append(word)
    return flags, argv


def credentials(settings):
    """A preexec function that drops to the unit's User and Group with the user's supplementary groups."""
    user = get(settings, "User")
    group = get(settings, "Group")
    if not user and not group:
        return None
    entry = pwd.getpwnam(user) if user else None
    gid = grp.getgrnam(group).gr_gid if group else entry.pw_gid

    def drop():
        os.setgid(gid)
        if entry:
            os.initgroups(entry.pw_name, gid)
            os.setuid(entry.pw_uid)

    return drop


def workdir(settings, unit):
    wd = get(settings, "WorkingDirectory")
    if not wd:
        return "/"
    if wd.startswith("-"):
        wd = wd[1:]
        return wd if os.path.isdir(wd) else "/"
    if wd == "~":
        return pwd.getpwnam(get(settings, "User", "root")).pw_dir
    if not os.path.isdir(wd):
        die(f"Job for {unit} failed: WorkingDirectory {wd} does not exist (status=200/CHDIR).")
    return wd


def run_exec(settings, unit, key, env, log, as_root=False):
    """Runs each command of `key` in the foreground; returns False when one fails (without the - prefix)."""
    for line in get_all(settings, key):
        flags, argv = command(line, env)
        drop = None if ("+" in flags or "!" in flags or as_root) else credentials(settings)
        try:
            code = subprocess.call(argv, env=env, cwd=workdir(settings, unit), preexec_fn=drop,
                                   stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        except OSError as e:
            print(f"{key}: {e}", file=log)
            code = 203
        if code != 0 and "-" not in flags:
            print(f"Job for {unit} failed: {key} {argv[0]} exited {code}. See {log.name}.", file=sys.stderr)
            return False
    return True


def runtime_dirs(settings):
    user = get(settings, "User")
    entry = pwd.getpwnam(user) if user else None
    group = get(settings, "Group")
    gid = grp.getgrnam(group).gr_gid if group else (entry.pw_gid if entry else 0)
    mode = int(get(settings, "RuntimeDirectoryMode", "0755"), 8)
    for value in get_all(settings, "RuntimeDirectory"):
        for d in value.split():
            path = os.path.join("/run", d)
            os.makedirs(path, exist_ok=True)
            os.chmod(path, mode)
            os.chown(path, entry.pw_uid if entry else 0, gid)


def start(unit):
    if is_active(unit):
        return True
    settings = load(unit)
    if get(settings, "Type") == "oneshot" and not get_all(settings, "ExecStart"):
        die(f"{unit} has no ExecStart.")
    os.makedirs(STATE, exist_ok=True)
    log = open(os.path.join(STATE, unit + ".log"), "a")
    kind = get(settings, "Type", "simple")
    runtime_dirs(settings)
    env = environment(settings, unit)
    wd = workdir(settings, unit)
    if not run_exec(settings, unit, "ExecStartPre", env, log):
        return False
    if kind in ("oneshot", "forking"):
        if not run_exec(settings, unit, "ExecStart", env, log):
            return False
        if kind == "forking":
            pidfile = get(settings, "PIDFile")
            pid = 0
            for _ in range(100):
                try:
                    pid = int(open(pidfile).read().split()[0]) if pidfile else 0
                    if alive(pid):
                        break
                except (OSError, ValueError, IndexError):
                    pass
                time.sleep(0.1)
            if pidfile and not alive(pid):
                print(f"Job for {unit} failed: no live process in PIDFile {pidfile}.", file=sys.stderr)
                return False
            open(pid_file(unit), "w").write(str(pid))
        elif get(settings, "RemainAfterExit", "no") in ("yes", "true", "on", "1"):
            open(pid_file(unit), "w").write("0")
    else:
        lines = get_all(settings, "ExecStart")
        if len(lines) != 1:
            die(f"{unit}: Type={kind} needs exactly one ExecStart.")
        flags, argv = command(lines[0], env)
        argv, drop = with_capabilities(settings, argv)
        notify = kind in ("notify", "notify-reload")
        sock = None
        if notify:
            path = os.path.join(STATE, unit + ".notify")
            if os.path.exists(path):
                os.unlink(path)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.bind(path)
            os.chmod(path, 0o777)
            env = {**env, "NOTIFY_SOCKET": path}

        def child():
            os.setsid()
            if drop:
                drop()

        try:
            proc = subprocess.Popen(argv, env=env, cwd=wd, preexec_fn=child, stdout=log, stderr=log,
                                    stdin=subprocess.DEVNULL)
        except OSError as e:
            print(f"Job for {unit} failed: {argv[0]}: {e} (status=203/EXEC).", file=sys.stderr)
            return False
        open(pid_file(unit), "w").write(str(proc.pid))
        if notify:
            sock.settimeout(0.5)
            deadline = time.time() + 90
            ready = False
            while time.time() < deadline and not ready:
                if proc.poll() is not None:
                    break
                try:
                    message = sock.recv(4096).decode()
                except socket.timeout:
                    continue
                for field in message.split("\n"):
                    if field == "READY=1":
                        ready = True
                    elif field.startswith("MAINPID="):
                        open(pid_file(unit), "w").write(field[8:])
            sock.close()
            if not ready:
                print(f"Job for {unit} failed: the process did not report READY=1. See {log.name}.", file=sys.stderr)
                stop(unit)
                return False
    return run_exec(settings, unit, "ExecStartPost", env, log)


def stop(unit):
    settings = load(unit)
    pid = main_pid(unit)
    if pid is None:
        return True
    log = open(os.path.join(STATE, unit + ".log"), "a")
    env = environment(settings, unit, {"MAINPID": str(pid)})
    run_exec(settings, unit, "ExecStop", env, log)
    if pid > 0 and alive(pid):
        sig = getattr(signal, get(settings, "KillSignal", "SIGTERM"))
        try:
            os.killpg(os.getpgid(pid), sig)
        except ProcessLookupError:
            pass
        deadline = time.time() + min(seconds(get(settings, "TimeoutStopSec"), 90), 90)
        while alive(pid) and time.time() < deadline:
            time.sleep(0.1)
        if alive(pid):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
    run_exec(settings, unit, "ExecStopPost", env, log)
    os.unlink(pid_file(unit))
    if get(settings, "RuntimeDirectoryPreserve", "no") not in ("yes", "restart"):
        for value in get_all(settings, "RuntimeDirectory"):
            for d in value.split():
                subprocess.call(["rm", "-rf", os.path.join("/run", d)])
    return True


def known_units():
    """Units with a state (started here), for PartOf and ReloadPropagatedFrom."""
    if not os.path.isdir(STATE):
        return []
    return [f[:-4] for f in os.listdir(STATE) if f.endswith(".pid")]


def followers(unit, key):
    return [u for u in known_units() if u != unit and unit in " ".join(get_all(load(u), key, "Unit")).split()]


def reload(unit):
    if not is_active(unit):
        die(f"Job for {unit} failed: {unit} is not active, cannot reload.")
    settings = load(unit)
    ok = True
    if get_all(settings, "ExecReload"):
        log = open(os.path.join(STATE, unit + ".log"), "a")
        ok = run_exec(settings, unit, "ExecReload", environment(settings, unit, {"MAINPID": str(main_pid(unit))}), log)
    elif get(settings, "Type") == "notify-reload":
        os.kill(main_pid(unit), getattr(signal, get(settings, "ReloadSignal", "SIGHUP")))
    elif not followers(unit, "ReloadPropagatedFrom"):
        die(f"Failed to reload {unit}: Job type reload is not applicable for unit {unit}.")
    for f in followers(unit, "ReloadPropagatedFrom"):
        ok = reload(f) and ok
    return ok


def restart(unit):
    parts = [u for u in followers(unit, "PartOf") if is_active(u)]
    for u in parts:
        stop(u)
    stop(unit)
    ok = start(unit)
    for u in parts:
        ok = start(u) and ok
    return ok


def wants_links(unit):
    """The unit's file and the (target, "wants"|"requires") links its [Install] section asks for."""
    settings = load(unit)
    links = [(t, "wants") for v in get_all(settings, "WantedBy", "Install") for t in v.split()]
    links += [(t, "requires") for v in get_all(settings, "RequiredBy", "Install") for t in v.split()]
    return settings["_path"], links


def enable(unit):
    path, targets = wants_links(unit)
    if not targets:
        print(f"The unit files have no installation config (WantedBy=, RequiredBy=); {unit} is static.",
              file=sys.stderr)
    for target, kind in targets:
        d = f"/etc/systemd/system/{target}.{kind}"
        os.makedirs(d, exist_ok=True)
        link = os.path.join(d, unit)
        if not os.path.lexists(link):
            os.symlink(path, link)
            print(f"Created symlink {link} → {path}.")
    return True


def disable(unit):
    for link in glob.glob(f"/etc/systemd/system/*.wants/{unit}") + glob.glob(f"/etc/systemd/system/*.requires/{unit}"):
        os.unlink(link)
        print(f"Removed '{link}'.")
    return True


def enabled_state(unit):
    if glob.glob(f"/etc/systemd/system/*.wants/{unit}") + glob.glob(f"/etc/systemd/system/*.requires/{unit}"):
        return "enabled"
    path, targets = wants_links(unit)
    return "disabled" if targets else "static"


def status(unit):
    settings = load(unit)
    pid = main_pid(unit)
    state = "active (running)" if is_active(unit) and pid else ("active (exited)" if is_active(unit) else "inactive (dead)")
    print(f"● {unit} - {get(settings, 'Description', unit, 'Unit')}")
    print(f"     Loaded: loaded ({settings['_path']}; {enabled_state(unit)})")
    print(f"     Active: {state}")
    if pid:
        print(f"   Main PID: {pid}")
    log = os.path.join(STATE, unit + ".log")
    if os.path.exists(log):
        print("\n" + "\n".join(open(log).read().rstrip("\n").split("\n")[-10:]))
    return is_active(unit)


def all_unit_files():
    names = set()
    for d in UNIT_DIRS:
        for path in glob.glob(os.path.join(d, "*.*")):
            if os.path.isfile(path) and not path.endswith(".d"):
                names.add(os.path.basename(path))
    return sorted(names)


def main(argv):
    opts = [a for a in argv if a.startswith("-")]
    args = [a for a in argv if not a.startswith("-")]
    if not args:
        die("systemctl (the runner's stand-in): an action is required.")
    action, names = args[0], [full_name(a) for a in args[1:]]
    now = "--now" in opts
    if action == "daemon-reload":
        return 0  # every action reads the unit files afresh
    if action in ("start", "stop", "restart", "reload", "try-restart", "reload-or-restart"):
        ok = True
        for u in names:
            if action == "start":
                ok = start(u) and ok
            elif action == "stop":
                ok = stop(u) and ok
            elif action == "restart" or (action == "try-restart" and is_active(u)):
                ok = restart(u) and ok
            elif action == "reload":
                ok = reload(u) and ok
            elif action == "reload-or-restart":
                ok = (reload(u) if is_active(u) else start(u)) and ok
        return 0 if ok else 1
    if action in ("enable", "disable"):
        ok = True
        for u in names:
            ok = (enable(u) if action == "enable" else disable(u)) and ok
            if now:
                ok = (start(u) if action == "enable" else stop(u)) and ok
        return 0 if ok else 1
    if action == "is-enabled":
        states = [enabled_state(u) for u in names]
        print("\n".join(states))
        return 0 if "enabled" in states else 1
    if action == "is-active":
        states = ["active" if is_active(u) else "inactive" for u in names]
        print("\n".join(states))
        return 0 if "active" in states else 3
    if action == "status":
        return 0 if all([status(u) for u in names]) else 3
    if action == "list-units":
        patterns = [a for a in args[1:]] or ["*"]
        for u in sorted(known_units()):
            if is_active(u) and any(fnmatch.fnmatch(u, full_name(p) if "*" not in p else p) for p in patterns):
                print(f"{u} loaded active {'running' if main_pid(u) else 'exited'}")
        return 0
    if action == "list-unit-files":
        kind = next((o.split("=", 1)[1] for o in opts if o.startswith("--type=")), None)
        want = next((o.split("=", 1)[1] for o in opts if o.startswith("--state=")), None)
        for name in all_unit_files():
            if kind and not name.endswith("." + kind) or "@." in name:
                continue
            state = enabled_state(name)
            if not want or state == want:
                print(f"{name} {state}")
        return 0
    die(f"systemctl (the runner's stand-in): the action {action!r} is not supported here.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
