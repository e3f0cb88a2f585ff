/**
 * The Python program that starts inside the sandbox (run with `python3 -I -c`). It reads the
 * user's code from stdin into /work/main.py, runs it as a child (stdin /dev/null, stdout and
 * stderr inherited, default signal handling, without fd 3), then writes the regular files the
 * code left in /work to fd 3, framed as one JSON header line per record followed by the raw
 * bytes: `{"file": name, "size": n}` … and last `{"exit": code}`. Symlinks and special files
 * are skipped (never followed). Limits on count and size are passed as argv[1] (JSON). The
 * launcher ignores the catchable signals the code might send its parent; a SIGKILL ends the
 * whole sandbox (the host then reports that no result came back).
 */
export const LAUNCHER = String.raw`
import json, os, signal, subprocess, sys
limits = json.loads(sys.argv[1])
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGPIPE):
    signal.signal(s, signal.SIG_IGN)
out = os.fdopen(3, 'wb', buffering=0)
code = sys.stdin.buffer.read()
with open('/work/main.py', 'wb') as f:
    f.write(code)
# Chinese labels in plots: matplotlib (3.6+) falls back glyph by glyph from DejaVu Sans
# to the CJK fonts Debian installed (scripts/setup.mjs); only fonts present are named (no warnings).
cjk = [name for name, path in (('WenQuanYi Micro Hei', '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc'), ('WenQuanYi Zen Hei', '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc'), ('Droid Sans Fallback', '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf')) if os.path.exists(path)]
try:
    os.makedirs(os.environ.get('MPLCONFIGDIR', '/tmp/matplotlib'), exist_ok=True)
    with open(os.path.join(os.environ.get('MPLCONFIGDIR', '/tmp/matplotlib'), 'matplotlibrc'), 'w') as f:
        f.write('font.family: ' + ', '.join(['DejaVu Sans'] + cjk) + '\naxes.unicode_minus: False\n')
except OSError:
    pass
def reset():
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGPIPE):
        signal.signal(s, signal.SIG_DFL)
    os.setpgid(0, 0)
try:
    child = subprocess.Popen([sys.executable, '-u', '/work/main.py'], stdin=subprocess.DEVNULL, cwd='/work', close_fds=True, preexec_fn=reset)
    rc = child.wait()
except OSError as e:
    sys.stderr.write('cannot start: %s\n' % e)
    rc = 127
try:
    os.killpg(child.pid, signal.SIGKILL)
except Exception:
    pass
count = 0
total = 0
skipped = []
for root, dirs, files in os.walk('/work', followlinks=False):
    dirs.sort()
    for name in sorted(files):
        path = os.path.join(root, name)
        rel = os.path.relpath(path, '/work')
        if rel == 'main.py' or rel.startswith('.cache/') or rel.startswith('.config/'):
            continue
        try:
            st = os.lstat(path)
        except OSError:
            continue
        import stat as _st
        if not _st.S_ISREG(st.st_mode):
            continue
        if count >= limits['files'] or st.st_size > limits['fileBytes'] or total + st.st_size > limits['totalBytes']:
            skipped.append([rel, st.st_size])
            continue
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, 'rb') as f:
                data = f.read(limits['fileBytes'] + 1)
        except OSError:
            continue
        if len(data) > limits['fileBytes']:
            skipped.append([rel, len(data)])
            continue
        out.write((json.dumps({'file': rel, 'size': len(data)}) + '\n').encode())
        out.write(data)
        count += 1
        total += len(data)
out.write((json.dumps({'exit': rc, 'skipped': skipped[:50]}) + '\n').encode())
out.close()
`;
