#!/usr/bin/env python3
"""Cut retrace into a git-am-able patch series (make series).

  series.py gen      build/series/: 0000-cover-letter.patch and one patch
                     per stanza of harness/series.manifest, against the
                     pristine tree (build/series-git, a git repository)
  series.py check    the fast checks: the manifest covers every file and
                     hunk once, `git am` applies the series to a fresh
                     clone of the pristine tree, the result is byte for
                     byte the tree the harness builds, and checkpatch
                     --strict finds no errors
  series.py bisect   build the kernel after every patch (slow)

Environment: TOP, BUILD (harness/lib.sh), KSRC (a 6.12 tree instead of
the Debian tarball), JOBS.
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import time

TOP = os.environ.get('TOP') or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get('BUILD') or os.path.join(TOP, 'build')
TARBALL = '/usr/src/linux-source-6.12.tar.xz'
BASE = os.path.join(BUILD, 'series-git')      # pristine tree, git
OUT = os.path.join(BUILD, 'series')           # the patches
MANIFEST = os.path.join(TOP, 'harness', 'series.manifest')
RT = 'kernel/trace/retrace/'
# What the harness lays over the pristine tree (prepare-src.sh), plus
# the user-space parts it builds from the repository directly.
OVERLAY_DIRS = ['kernel', 'include', 'arch', 'Documentation', 'samples', 'tools']
T0 = int(os.environ.get('T0') or time.time())


def step(msg):
    print('[retrace %4ds] %s' % (int(time.time()) - T0, msg), flush=True)


def die(msg):
    print('retrace: error: series: ' + msg, file=sys.stderr)
    sys.exit(1)


def git(*args, cwd=BASE, env=None, capture=True, check=True, inp=None):
    e = dict(os.environ)
    e.update(ident())
    if env:
        e.update(env)
    r = subprocess.run(['git'] + list(args), cwd=cwd, env=e, input=inp,
                       stdout=subprocess.PIPE if capture else None,
                       stderr=subprocess.PIPE if capture else None,
                       universal_newlines=True)
    if check and r.returncode:
        die('git %s: %s' % (' '.join(args), (r.stderr or '').strip()[-800:]))
    return r.stdout if capture else ''


_ident = None


def ident():
    """Author and committer: the repository's identity, fixed dates."""
    global _ident
    if _ident is None:
        def cfg(k, d):
            r = subprocess.run(['git', 'config', k], cwd=TOP, stdout=subprocess.PIPE,
                               universal_newlines=True)
            return r.stdout.strip() or d
        name = cfg('user.name', 'retrace developers')
        mail = cfg('user.email', 'retrace@localhost')
        # The series' date: the last commit's, so a tree gives one series.
        date = subprocess.run(['git', 'log', '-1', '--format=%cI'], cwd=TOP,
                              stdout=subprocess.PIPE,
                              universal_newlines=True).stdout.strip() or '2026-01-01T00:00:00+00:00'
        _ident = {'GIT_AUTHOR_NAME': name, 'GIT_AUTHOR_EMAIL': mail,
                  'GIT_COMMITTER_NAME': name, 'GIT_COMMITTER_EMAIL': mail,
                  'GIT_AUTHOR_DATE': date, 'GIT_COMMITTER_DATE': date}
    return _ident


# ---- the manifest ------------------------------------------------------

class Patch:
    def __init__(self, name):
        self.name = name
        self.subject = ''
        self.globs = []
        self.kconfig = []
        self.hunks = []         # (file, index or '*')
        self.body = []
        self.files = []         # resolved repository paths


def read_manifest():
    patches, cur, section = [], None, None
    for no, line in enumerate(open(MANIFEST), 1):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            if section == 'body' and not line.strip():
                section = None
            continue
        if not line[0].isspace():
            key, _, val = line.partition(':')
            val = val.strip()
            if key == 'patch':
                cur = Patch(val)
                patches.append(cur)
                section = None
            elif cur is None:
                die('%s:%d: stanza before "patch:"' % (MANIFEST, no))
            elif key == 'subject':
                cur.subject = val
            elif key == 'kconfig':
                cur.kconfig = val.split()
            elif key in ('files', 'hunks', 'body'):
                section = key
            else:
                die('%s:%d: unknown key %s' % (MANIFEST, no, key))
            continue
        item = line.strip()
        if section == 'files':
            cur.globs.append(item)
        elif section == 'hunks':
            f, _, n = item.rpartition(' ')
            cur.hunks.append((f, n if n == '*' else int(n)))
        elif section == 'body':
            cur.body.append('' if item == '.' else item)
        else:
            die('%s:%d: indented line outside a section' % (MANIFEST, no))
    return patches


def overlay_files():
    out = subprocess.run(['git', 'ls-files', '--'] + OVERLAY_DIRS, cwd=TOP,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
    return sorted(out)


def generated(path):
    """Files the series cuts down per patch instead of listing."""
    return (path == RT + 'Kconfig' or
            (path.startswith(RT) and path.endswith('/Makefile') and
             not path.startswith(RT + 'host/')) or path == RT + 'Makefile')


def resolve(patches, kp):
    errors = []
    owner = {}
    for f in overlay_files():
        if generated(f):
            continue
        hits = [p for p in patches if any(fnmatch.fnmatch(f, g) for g in p.globs)]
        if len(hits) != 1:
            errors.append('%s: in %d patches (%s)' % (f, len(hits), ' '.join(p.name for p in hits)))
            continue
        hits[0].files.append(f)
        owner[f] = hits[0]
    for p in patches:
        for g in p.globs:
            if not any(fnmatch.fnmatch(f, g) for f in p.files):
                errors.append('%s: glob %s matches nothing' % (p.name, g))
    # Kconfig symbols and Kconfig.patch hunks: each exactly once.
    syms = kconfig_symbols()
    seen = {}
    for p in patches:
        for s in p.kconfig:
            if s not in syms:
                errors.append('%s: no symbol %s in %sKconfig' % (p.name, s, RT))
            if s in seen:
                errors.append('%s: symbol %s also in %s' % (p.name, s, seen[s]))
            seen[s] = p.name
    for s in syms:
        if s not in seen:
            errors.append('Kconfig symbol %s is in no patch' % s)
    taken = {}
    for p in patches:
        for f, n in p.hunks:
            if f not in kp:
                errors.append('%s: %s is not in Kconfig.patch' % (p.name, f))
                continue
            idx = range(1, len(kp[f]['hunks']) + 1) if n == '*' else [n]
            for i in idx:
                if i < 1 or i > len(kp[f]['hunks']):
                    errors.append('%s: %s has no hunk %d' % (p.name, f, i))
                elif (f, i) in taken:
                    errors.append('%s: %s hunk %d also in %s' % (p.name, f, i, taken[(f, i)]))
                else:
                    taken[(f, i)] = p.name
    for f in kp:
        for i in range(1, len(kp[f]['hunks']) + 1):
            if (f, i) not in taken:
                errors.append('Kconfig.patch: %s hunk %d is in no patch' % (f, i))
    return errors


# ---- Kconfig.patch -----------------------------------------------------

def parse_kconfig_patch():
    """{path: {'hunks': [(old_start, old_lines, new_lines)]}} in order."""
    files, cur, hunk = {}, None, None
    for line in open(os.path.join(TOP, 'Kconfig.patch')).read().split('\n'):
        if line.startswith('diff ') or line.startswith('--- '):
            hunk = None
            continue
        if line.startswith('+++ '):
            path = line[4:].split('\t')[0].split(' ')[0]
            path = path[2:] if path.startswith('b/') else path
            cur = files.setdefault(path, {'hunks': []})
            hunk = None
            continue
        m = re.match(r'^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@', line)
        if m:
            hunk = (int(m.group(1)), [], [])
            cur['hunks'].append(hunk)
            continue
        if hunk is None:
            continue
        if line.startswith(' '):
            hunk[1].append(line[1:])
            hunk[2].append(line[1:])
        elif line.startswith('-'):
            hunk[1].append(line[1:])
        elif line.startswith('+'):
            hunk[2].append(line[1:])
        elif line.startswith('\\'):
            pass
    return files


def apply_hunks(text, hunks):
    """Apply some of a file's hunks (in file order) to its pristine text."""
    lines = text.split('\n')
    shift = 0
    for start, old, new in hunks:
        want = start - 1 + shift
        found = [i for i in range(len(lines) - len(old) + 1) if lines[i:i + len(old)] == old]
        if not found:
            return None
        at = min(found, key=lambda i: abs(i - want))
        lines[at:at + len(old)] = new
        shift += len(new) - len(old)
    return '\n'.join(lines)


# ---- files cut down per patch ------------------------------------------

def kconfig_symbols():
    txt = open(os.path.join(TOP, RT + 'Kconfig')).read()
    return re.findall(r'^(?:menu)?config\s+(\w+)', txt, re.M)


def kconfig_filter(have_syms):
    """kernel/trace/retrace/Kconfig with only the symbols added so far."""
    txt = open(os.path.join(TOP, RT + 'Kconfig')).read()
    keep = []
    for para in txt.split('\n\n'):
        m = re.match(r'(?:menu)?config\s+(\w+)', para.lstrip('\n'))
        if m and m.group(1) not in have_syms:
            continue
        keep.append(para)
    return '\n\n'.join(keep)


def src_exists(d, obj, present):
    base = obj[:-2]
    return any(os.path.join(d, base + ext) in present for ext in ('.c', '.S'))


def dir_exists(d, sub, present):
    p = os.path.join(d, sub)
    return any(f.startswith(p) for f in present)


def kbuild_filter(path, present):
    """A kbuild Makefile with the objects whose sources exist so far.

    Object lists lose the objects not there yet (a list left empty goes,
    with the comment lines right above it); per-object variables go with
    their object; ifdef blocks left empty go.  With every source there
    the file comes out unchanged.
    """
    d = os.path.dirname(path)
    raw = open(os.path.join(TOP, path)).read().split('\n')
    # Logical lines: (physical lines, joined text)
    logical, buf = [], []
    for line in raw:
        buf.append(line)
        if not line.endswith('\\'):
            logical.append(buf)
            buf = []
    if buf:
        logical.append(buf)
    out = []

    def drop_comment(names):
        # The comment lines right above a dropped line that name what
        # was dropped go with it (from the first that names it down).
        top = len(out)
        while top > 0 and out[top - 1][0].startswith('#') and 'SPDX' not in out[top - 1][0]:
            top -= 1
        for i in range(top, len(out)):
            if any(n in out[i][0] for n in names):
                del out[i:]
                return

    for phys in logical:
        text = ' '.join(l.rstrip('\\').strip() for l in phys)
        m = re.match(r'^((?:obj|lib)-[^\s+:]*\s*[+:]?=)\s*(.*)$', text)
        if m:
            toks = m.group(2).split()
            gone = [t for t in toks if
                    (t.endswith('.o') and not src_exists(d, t, present)) or
                    (t.endswith('/') and not dir_exists(d, t, present))]
            kept = [t for t in toks if t not in gone]
            if not kept:
                drop_comment([t.rstrip('/').rsplit('.', 1)[0] for t in gone])
                continue
            if gone:
                phys = wrap(m.group(1), kept)
            out.append(phys)
            continue
        m = re.match(r'^[A-Z_]+_([\w-]+\.o)\s*[+:]?=', text)
        if m and not src_exists(d, m.group(1), present):
            drop_comment([m.group(1)[:-2]])
            continue
        out.append(phys)
    # Empty ifdef/ifeq ... endif blocks.
    changed = True
    while changed:
        changed = False
        for i, phys in enumerate(out):
            if re.match(r'^if(n?def|n?eq)\b', phys[0]) and i + 1 < len(out) and out[i + 1][0] == 'endif':
                del out[i:i + 2]
                changed = True
                break
    return '\n'.join(l for phys in out for l in phys)


def wrap(head, toks):
    lines, cur = [], head
    for t in toks:
        if len(cur) + 1 + len(t) > 78 and cur != head:
            lines.append(cur + ' \\')
            cur = '\t' + t
        else:
            cur += ' ' + t
    lines.append(cur)
    return lines


# ---- generation --------------------------------------------------------

def pristine_id():
    if os.environ.get('KSRC'):
        return 'KSRC=' + os.path.abspath(os.environ['KSRC'])
    st = os.stat(TARBALL)
    return '%s %d %d' % (TARBALL, st.st_size, int(st.st_mtime))


def from_src(dest, paths):
    """Take @paths from the harness's tree, build/src, with Kconfig.patch
    taken back out (much faster than reading the tarball).  False when
    build/src is not there or holds another Kconfig.patch."""
    src = os.path.join(BUILD, 'src')
    applied = os.path.join(src, '.retrace-Kconfig.patch')
    mine = os.path.join(TOP, 'Kconfig.patch')
    if not os.path.exists(applied) or open(applied, 'rb').read() != open(mine, 'rb').read():
        return False
    for f in paths:
        if not os.path.exists(os.path.join(src, f)):
            return False
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy2(os.path.join(src, f), os.path.join(dest, f))
    r = subprocess.run(['patch', '-R', '-p1', '-s', '-d', dest, '-i', mine],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return r.returncode == 0


def pristine_tree(dest, paths=None):
    """The pristine 6.12 tree (or just @paths of it) in @dest, a git
    repository whose commit 'base' holds it."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    if os.environ.get('KSRC'):
        ksrc = os.environ['KSRC']
        if paths is None:
            subprocess.run(['rsync', '-a', '--exclude=.git', ksrc + '/', dest + '/'], check=True)
        for f in paths or []:
            os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
            shutil.copy2(os.path.join(ksrc, f), os.path.join(dest, f))
    elif paths is not None and from_src(dest, paths):
        pass
    else:
        top = subprocess.run('tar tf %s | head -n 1' % TARBALL, shell=True, stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.split('/')[0]
        members = [] if paths is None else [top + '/' + f for f in paths]
        subprocess.run(['tar', 'xf', TARBALL, '-C', dest, '--strip-components=1'] + members, check=True)
    git('init', '-q', cwd=dest)
    git('config', 'core.autocrlf', 'false', cwd=dest)
    git('config', 'gc.auto', '0', cwd=dest)
    git('add', '-A', '-f', cwd=dest)
    git('commit', '-q', '-m', 'Linux 6.12 (%s)' % pristine_id().split()[0], cwd=dest)
    git('tag', '-f', 'base', cwd=dest)


# checkpatch and its data, run from the pristine tree.
CHECKPATCH = ['scripts/checkpatch.pl', 'scripts/spelling.txt', 'scripts/const_structs.checkpatch']


def ensure_base(kp):
    """build/series-git: the pristine files the series changes, enough
    for git format-patch and git am (new files need no preimage)."""
    paths = sorted(set(kp) | set(CHECKPATCH))
    want = pristine_id() + '\n' + '\n'.join(paths)
    stamp = os.path.join(BASE, '.git', 'retrace-pristine')
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    step('series: the %d pristine files the series changes, in %s' % (len(kp), BASE))
    pristine_tree(BASE, paths)
    open(stamp, 'w').write(want)


def message(p):
    lines = [p.subject, '']
    body = list(p.body)
    while body and not body[-1]:
        body.pop()
    lines += body
    lines += ['', 'Signed-off-by: %s <%s>' % (ident()['GIT_AUTHOR_NAME'], ident()['GIT_AUTHOR_EMAIL'])]
    return '\n'.join(lines) + '\n'


def write(path, text):
    full = os.path.join(BASE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as f:
        f.write(text)


def load():
    """The manifest resolved against the tree, and Kconfig.patch."""
    patches = read_manifest()
    kp = parse_kconfig_patch()
    errors = resolve(patches, kp)
    if errors:
        die('the manifest does not cover the tree once:\n  ' + '\n  '.join(errors))
    return patches, kp


def gen():
    patches, kp = load()
    ensure_base(kp)
    step('series: %d patches' % len(patches))
    git('checkout', '-q', '-f', '-B', 'series', 'base')
    git('clean', '-q', '-fdx')
    pristine = {f: git('show', 'base:' + f) for f in kp}
    present, syms, applied = set(), set(), {f: [] for f in kp}
    gen_files = [f for f in overlay_files() if generated(f)]
    for p in patches:
        for f in p.files:
            src = os.path.join(TOP, f)
            dst = os.path.join(BASE, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            present.add(f)
        syms.update(p.kconfig)
        for f, n in p.hunks:
            applied[f] += range(1, len(kp[f]['hunks']) + 1) if n == '*' else [n]
        for f in {f for f, _ in p.hunks}:
            hunks = [kp[f]['hunks'][i - 1] for i in sorted(applied[f])]
            text = apply_hunks(pristine[f], hunks)
            if text is None:
                die('%s: Kconfig.patch hunks %s of %s do not apply' % (p.name, sorted(applied[f]), f))
            write(f, text)
        # The generated files: a layer's Makefile once the layer has a
        # source; the Kconfig and top Makefile once retrace has any.
        for f in gen_files:
            if f == RT + 'Kconfig':
                if syms:
                    write(f, kconfig_filter(syms))
                continue
            d = os.path.dirname(f) + '/'
            if any(x.startswith(d) and not generated(x) for x in present):
                write(f, kbuild_filter(f, present))
        git('add', '-A', '-f')
        git('commit', '-q', '-F', '-', inp=message(p))
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    git('format-patch', '-q', '--cover-letter', '--no-signature', '-o', OUT, 'base..series')
    step('series: checkpatch --strict on every patch')
    cover(patches, checkpatch())
    step('series: %s (%d patches and a cover letter)' % (OUT, len(patches)))


# Why each kind of checkpatch --strict warning or check is left in the
# series.  `series.py check` fails on a kind that has no reason here.
CHECKPATCH_REASONS = {
    'FILE_PATH_CHANGES': 'new files; retrace is not in MAINTAINERS (it is not submitted upstream)',
    'LINE_SPACING': 'a declaration followed directly by a short use, or two blank lines between groups; style only, to be tidied',
    'LONG_LINE_STRING': 'user-visible strings (help text, test and report messages) kept whole so they can be grepped',
    'LONG_LINE': 'host-only test shims, test tables and shell scripts; not kernel code',
    'LONG_LINE_COMMENT': 'a table in a comment (guest-bench.sh, event_list.c)',
    'TRAILING_SEMICOLON': 'RT_SYSCALL_METADATA() stands in for SYSCALL_METADATA(), which callers use both with and without a semicolon after it, so it must end in a complete declaration',
    'MACRO_ARG_REUSE': 'the macros take plain variables or constants at every call site (event field tables, irqflags/preempt hooks, host shims)',
    'MACRO_ARG_UNUSED': 'stubs that keep an upstream signature (host shims of kernel APIs, ftrace.h and marker.h compatibility macros)',
    'MACRO_ARG_PRECEDENCE': 'the argument is a function name at every use',
    'MACRO_WITH_FLOW_CONTROL': 'a host test\'s checking macro, which leaves the test on failure by design',
    'SINGLE_STATEMENT_DO_WHILE_MACRO': 'matches the upstream irqflags.h macros it sits beside',
    'PREFER_KERNEL_TYPES': 'user-space code (host shims, fuzz targets, tools) uses <stdint.h> types',
    'PARENTHESIS_ALIGNMENT': 'continuation lines aligned for a table or for 80 columns; style only, to be tidied',
    'UNCOMMENTED_DEFINITION': 'the locks are documented where their data is (file comments and Documentation/trace/retrace.txt)',
    'TRACE_PRINTK': 'trace_printk() is part of the API retrace implements; the uses are its declaration and two test modules',
    'ARRAY_SIZE': 'pure files also build on the host, where the kernel\'s ARRAY_SIZE() is not available',
    'STRCPY': 'host-side tests, and the kprobe_events parser, pure code also built on the host (no strscpy() there)',
    'MULTIPLE_ASSIGNMENTS': 'fuzz targets, and one allocation kept in two places (marker_event.c)',
    'MEMORY_BARRIER': 'the host shim\'s definitions of the kernel\'s barriers (documented in rb_host_shim.h)',
    'BIT_MACRO': 'raw_page.h is shared with the host build (no BIT_ULL there) and mirrors header_page\'s layout',
    'VOLATILE': 'the deliberate NULL write of the oops test module, and user-space signal flags and tests',
    'ENOSYS': 'marker.h\'s stubs when CONFIG_MARKERS is off: the call cannot work in that kernel',
    'CAMELCASE': 'names from libFuzzer (LLVMFuzzerTestOneInput) and C (PRIx64, _Static_assert) in user-space code',
    'CONFIG_DESCRIPTION': 'test-only options (benchmark and selftest modules, marker samples) with help shorter than four lines',
    'COMPARISON_TO_NULL': 'host tests, and find_module() != NULL stored as a bool',
    'PREFER_DEFINED_ATTRIBUTE_MACRO': 'host-only code, where __aligned() is not defined',
    'UNDOCUMENTED_SETUP': 'ftrace_dump_on_oops and kmemtrace.enable= are documented in Documentation/trace/retrace.txt and retrace-kmemtrace.txt',
    'EMBEDDED_FUNCTION_NAME': 'messages of user-space programs whose words are also the function\'s name',
    'QUOTED_WHITESPACE_BEFORE_NEWLINE': 'test inputs of the filter parser that must end in a space',
    'NEW_TYPEDEFS': 'the host shim defines the kernel\'s local_t and atomic_t for user space',
    'AVOID_EXTERNS': 'host test and fuzz programs declare the host shim\'s warning counter',
    'ALLOC_SIZEOF_STRUCT': 'style only, to be tidied',
    'VSPRINTF_SPECIFIER_PX': 'a panic message names the stack slot the return hook lost: debugging it needs the raw address',
    'EXPORT_SYMBOL': 'a static key\'s export right after its DEFINE_STATIC_KEY_FALSE(), which the checker does not take for a definition',
    'STATIC_CONST_CHAR_ARRAY': 'a fuzz target (user space)',
    'PRINTF_L': 'a test of the marker format checker, which must accept %Lu',
    'CONSTANT_COMPARISON': 'a BUILD_BUG_ON() that two record encodings agree; both sides are constants',
    'COMMIT_LOG_LONG_LINE': 'none: wrap the manifest body',
}


def patch_files():
    """The series' patches in build/series/, in order, without the cover letter."""
    return sorted(os.path.join(OUT, f) for f in os.listdir(OUT)
                  if f.endswith('.patch') and not f.startswith('0000-'))


def git_am(tree, files):
    """git am @files in @tree, refusing whitespace errors: (ok, output)."""
    r = subprocess.run(['git', 'am', '-q', '--whitespace=error-all'] + files, cwd=tree,
                       env=dict(os.environ, **ident()), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        print(r.stdout[-2000:])
    return r.returncode == 0


def checkpatch():
    """checkpatch --strict on every patch: [(patch, kind, type, line)]."""
    cp = os.path.join(BASE, 'scripts', 'checkpatch.pl')
    files = [os.path.basename(f) for f in patch_files()]
    procs = []
    results = []
    # Two at a time: the big patches take most of a minute each.
    pending = list(files)
    while pending or procs:
        while pending and len(procs) < 2:
            f = pending.pop(0)
            procs.append((f, subprocess.Popen(['perl', cp, '--no-tree', '--strict', '--terse', '--show-types',
                                               os.path.join(OUT, f)], cwd=BASE, stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, universal_newlines=True)))
        f, pr = procs.pop(0)
        out = pr.communicate()[0]
        if pr.returncode not in (0, 1) or 'total:' not in out:
            results.append((f, 'ERROR', 'CHECKPATCH_DID_NOT_RUN', out[-300:]))
        for line in out.split('\n'):
            m = re.search(r': (ERROR|WARNING|CHECK):(\w+):', line)
            if m:
                results.append((f, m.group(1), m.group(2), line))
    with open(os.path.join(OUT, 'checkpatch.txt'), 'w') as fh:
        for f, kind, typ, line in results:
            fh.write('%s %s %s %s\n' % (f, kind, typ, line))
    return results


def checkpatch_table(results):
    count = {}
    for f, kind, typ, line in results:
        if kind != 'ERROR':
            count[typ] = count.get(typ, 0) + 1
    rows = []
    for typ, n in sorted(count.items(), key=lambda x: (-x[1], x[0])):
        rows.append('  %-32s %4d  %s' % (typ, n, CHECKPATCH_REASONS.get(typ, 'NO REASON RECORDED')))
    return rows


def cover(patches, results):
    path = os.path.join(OUT, '0000-cover-letter.patch')
    text = open(path).read()
    n = len(patches)
    bench = os.path.join(BUILD, 'bench', 'results.csv')
    if os.path.exists(bench):
        rows = [l.rstrip('\n') for l in open(bench)]
        bench_txt = ('make bench (QEMU TCG with -icount shift=0, so guest time counts\n'
                     'instructions; retrace against upstream 6.12 with its own tracing,\n'
                     'with and without its latency tracers, and a kernel without tracing,\n'
                     'same config otherwise; build/bench/results.csv of %s):\n\n' %
                     time.strftime('%Y-%m-%d', time.gmtime(os.stat(bench).st_mtime)) +
                     '\n'.join('  ' + r for r in rows))
    else:
        bench_txt = ('No build/bench/results.csv in this build: run `make bench`, then\n'
                     '`make series`, for the figures.')
    errs = sum(1 for r in results if r[1] == 'ERROR')
    rows = checkpatch_table(results)
    cp_txt = ('scripts/checkpatch.pl --strict: %d errors, %d warnings and checks\n'
              '(build/series/checkpatch.txt lists each).  By kind, with why each\n'
              'is left:\n\n' % (errs, len(results) - errs)) + '\n'.join(rows)
    blurb = COVER.format(n=n, bench=bench_txt, checkpatch=cp_txt,
                         map=layer_map())
    text = text.replace('*** SUBJECT HERE ***', 'retrace: the ftrace family of tracers, rewritten')
    text = text.replace('*** BLURB HERE ***', blurb)
    open(path, 'w').write(text)


def layer_map():
    return '\n'.join([
        '  producers, tracers   kernel/trace/retrace/{producers,tracers}/',
        '        |              kprobe events, markers, kmemtrace, sched events;',
        '        v              function, function_graph, the latency tracers',
        '  events               kernel/trace/retrace/events/',
        '        |              event types, formats, enable, filters',
        '        v',
        '  core                 kernel/trace/retrace/core/',
        '        |              the tracing directory, output, trace_printk()',
        '        v',
        '  ring buffer, call-site patcher, hooks',
        '                       kernel/trace/retrace/{ring_buffer,callsite,hooks}/,',
        '                       arch/x86/kernel/retrace_*',
        '  lib                  kernel/trace/retrace/lib/ (glob, carry, ipset)',
        '',
        'Arrows point down only: the ring buffer, the patcher and the hooks',
        'know no tracer; a producer is new files plus a registration.',
    ])


COVER = """retrace replaces Linux's ftrace family of tracers: the tracing
directory and its control files, the nop, function, function_graph,
irqsoff, preemptoff, preemptirqsoff, wakeup and wakeup_rt tracers,
dynamic call-site patching with filters and commands, kprobe and
kretprobe events, kernel markers (trace_mark()) and kmemtrace's binary
relay channels.  Every producer writes into one lock-free per-CPU ring
buffer.  The interface is the one ftrace users know, so echo and cat,
upstream's ftracetest, perf-tools and trace-cmd work unchanged.

It is built instead of upstream's tracing (RETRACE depends on !FTRACE)
and needs x86_64.  Its own Kconfig symbols are under "retrace tracing
subsystem" in Kernel hacking.

The layers ({n} patches, in dependency order; each builds):

{map}

Documentation/trace/retrace.txt (the last patch) has the full map.

Tests
-----
The series carries its tests: host programs for the pure logic (make
host-test, under ASan and UBSan, and libFuzzer targets), test modules
(CONFIG_RETRACE_SELFTEST_MODULES), and selftests in
tools/testing/selftests/ftrace/retrace/.  To run the selftests on a
kernel built with this series: boot it with the test modules
installed, mount debugfs, and run

  tools/testing/selftests/ftrace/retrace/retrace_test.sh [FILTER]

as root (busybox sh is enough); each case prints [PASS], [FAIL] or
[SKIP].  The repository this series comes from boots the kernel under
QEMU and runs them all with `make check`.

Benchmarks
----------
{bench}

checkpatch
----------
{checkpatch}

Enabling it
-----------
  git am 00*.patch             (on a 6.12 tree, without this letter)
  scripts/config -d FTRACE -e DEBUG_FS -e RETRACE
  make olddefconfig

CONFIG_RETRACE_FUNCTION_TRACER and the tracers, events and markers
under it default to y."""


# ---- checks ------------------------------------------------------------

def check():
    patches, kp = load()
    files = patch_files()
    if len(files) != len(patches):
        die('%d patches in %s, %d in the manifest: run make series' % (len(files), OUT, len(patches)))
    # 1. git am on a fresh clone of the pristine tree.
    tmp = os.path.join(BUILD, 'series-am')
    shutil.rmtree(tmp, ignore_errors=True)
    git('clone', '-q', '--no-checkout', BASE, tmp, cwd=BUILD)
    git('checkout', '-q', '-b', 'am', 'base', cwd=tmp)
    ok = git_am(tmp, files)
    print('[%s] series/git-am (%d patches on a fresh clone of the pristine tree)' %
          ('PASS' if ok else 'FAIL', len(files)))
    # 2. byte for byte the harness's tree.
    if ok:
        bad = identity(tmp, kp)
        print('[%s] series/identity (%s)' % ('PASS' if not bad else 'FAIL',
              'the applied series is the harness tree' if not bad else '; '.join(bad[:8])))
        ok = ok and not bad
    shutil.rmtree(tmp, ignore_errors=True)
    # 3. checkpatch --strict, as make series ran it.
    results = []
    cpf = os.path.join(OUT, 'checkpatch.txt')
    for line in open(cpf) if os.path.exists(cpf) else []:
        f, kind, typ, rest = line.split(' ', 3)
        results.append((f, kind, typ, rest))
    errs = [r for r in results if r[1] == 'ERROR']
    for r in errs:
        print('  ' + r[3].rstrip())
    noreason = sorted({r[2] for r in results if r[1] != 'ERROR' and r[2] not in CHECKPATCH_REASONS})
    if noreason:
        print('  warnings with no reason in CHECKPATCH_REASONS: ' + ' '.join(noreason))
    print('[%s] series/checkpatch (--strict: %d errors, %d warnings and checks, each kind with a reason in the cover letter)' %
          ('PASS' if not errs and not noreason and os.path.exists(cpf) else 'FAIL', len(errs), len(results) - len(errs)))
    ok = ok and not errs and not noreason and os.path.exists(cpf)
    return 0 if ok else 1


def identity(tree, kp):
    """The applied series against pristine + Kconfig.patch + overlay."""
    bad = []
    changed = set(git('diff', '--name-only', 'base', 'HEAD', cwd=tree).split())
    want = set(kp) | set(overlay_files())
    for f in sorted(changed ^ want):
        bad.append('%s %s' % (f, 'changed by the series only' if f in changed else 'not in the series'))
    # Kconfig.patch applied with patch(1), as prepare-src.sh does.
    scratch = os.path.join(BUILD, 'series-patch')
    shutil.rmtree(scratch, ignore_errors=True)
    for f in kp:
        os.makedirs(os.path.dirname(os.path.join(scratch, f)), exist_ok=True)
        with open(os.path.join(scratch, f), 'w') as fh:
            fh.write(git('show', 'base:' + f))
    r = subprocess.run(['patch', '-p1', '-s', '-d', scratch, '-i', os.path.join(TOP, 'Kconfig.patch')],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        bad.append('Kconfig.patch does not apply to the pristine tree: ' + r.stdout[-300:])
    for f in sorted(want & changed):
        ref = os.path.join(scratch if f in kp else TOP, f)
        with open(ref, 'rb') as a, open(os.path.join(tree, f), 'rb') as b:
            if a.read() != b.read():
                bad.append(f + ' differs')
    shutil.rmtree(scratch, ignore_errors=True)
    return bad


def patch_subject(path):
    """A patch's subject as git am records it, without "[PATCH n/N] "."""
    subj, on = '', False
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('Subject: '):
            subj, on = line[len('Subject: '):], True
        elif on and line.startswith((' ', '\t')):
            subj += ' ' + line.strip()
        elif on:
            break
    return re.sub(r'^\[PATCH[^]]*\] ', '', subj)


def applied_series(tmp, files):
    """The series' commits in @tmp if it holds exactly @files, else None."""
    if not os.path.isdir(os.path.join(tmp, '.git')):
        return None
    r = subprocess.run(['git', 'rev-list', '--reverse', '--branches', '^base'], cwd=tmp,
                       stdout=subprocess.PIPE, universal_newlines=True)
    commits = r.stdout.split() if r.returncode == 0 else []
    if len(commits) != len(files):
        return None
    for c, f in zip(commits, files):
        if git('log', '-1', '--format=%s', c, cwd=tmp).strip() != patch_subject(f):
            return None
    return commits


def bisect():
    """Build after every patch: olddefconfig + retrace's config, -j$JOBS.

    BISECT_FROM=N resumes an interrupted run at patch N: it reuses the
    repository and the objects of that run (build/series-full, build/
    obj-series) if they hold this very series, so the next build is
    incremental as it would have been.  The per-patch times then add up
    to one whole run's."""
    log = os.path.join(BUILD, 'series-bisect.log')
    tmp = os.path.join(BUILD, 'series-full')
    obj = os.path.join(BUILD, 'obj-series')
    files = patch_files()
    if not files:
        die('no series: run make series')
    start = int(os.environ.get('BISECT_FROM') or 1)
    commits = applied_series(tmp, files) if start > 1 else None
    if start > 1 and not commits:
        die('BISECT_FROM=%d: %s does not hold this series; run without it' % (start, tmp))
    if commits:
        step('series: resuming at patch %d in %s' % (start, tmp))
    else:
        # git am on a fresh repository of the whole pristine tree.
        t = time.time()
        step('series: the whole pristine tree as a git repository in %s' % tmp)
        pristine_tree(tmp)
        ok = git_am(tmp, files)
        print('[%s] series/git-am-full (%d patches on the whole pristine tree, %ds)' %
              ('PASS' if ok else 'FAIL', len(files), time.time() - t), flush=True)
        if not ok:
            return 1
        commits = git('rev-list', '--reverse', 'base..HEAD', cwd=tmp).split()
    frag = [os.path.join(TOP, 'harness', 'config', 'retrace.config')]
    jobs = os.environ.get('JOBS') or str(os.cpu_count())
    cc = 'ccache gcc' if shutil.which('ccache') else 'gcc'
    # As harness/kernel.sh: hash paths relative to build/, so that the
    # next run, or a fresh clone elsewhere, hits the cache.
    env = dict(os.environ, CCACHE_BASEDIR=BUILD, CCACHE_NOHASHDIR='1',
               CCACHE_SLOPPINESS='time_macros')
    env.setdefault('CCACHE_DIR', os.path.expanduser('~/.ccache'))
    failed = 0
    t_all = time.time()
    with open(log, 'a' if start > 1 else 'w') as lf:
        for i, c in enumerate(commits, 1):
            if i < start:
                continue
            subj = git('log', '-1', '--format=%s', c, cwd=tmp).strip()
            git('checkout', '-q', '-f', c, cwd=tmp)
            t = time.time()
            os.makedirs(obj, exist_ok=True)
            cmds = [['make', '-s', 'O=' + obj, 'CC=' + cc, 'x86_64_defconfig'],
                    ['scripts/kconfig/merge_config.sh', '-m', '-O', obj, os.path.join(obj, '.config')] + frag,
                    ['make', '-s', 'O=' + obj, 'CC=' + cc, 'olddefconfig'],
                    ['make', '-s', 'O=' + obj, 'CC=' + cc, '-j' + jobs, 'bzImage', 'modules']]
            rc = 0
            for cmd in cmds:
                lf.write('$ %s\n' % ' '.join(cmd))
                lf.flush()
                rc = subprocess.run(cmd, cwd=tmp, env=env, stdout=lf,
                                    stderr=subprocess.STDOUT).returncode
                if rc:
                    break
            dt = time.time() - t
            print('[%s] series/bisect/%02d %s (%ds)' % ('PASS' if rc == 0 else 'FAIL', i, subj, dt), flush=True)
            failed += rc != 0
    print('series: %d builds in %ds, %d failed (log: %s)' %
          (len(commits) - start + 1, time.time() - t_all, failed, log))
    return 1 if failed else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else 'gen'
    if cmd == 'gen':
        gen()
        return 0
    if cmd == 'check':
        return check()
    if cmd == 'bisect':
        return bisect()
    die('usage: series.py gen|check|bisect')


if __name__ == '__main__':
    sys.exit(main())
