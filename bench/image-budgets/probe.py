"""Probe: start `deckforge serve` from REPO, send a picture, time the answer, /healthz latency during it, SIGTERM."""
import json, os, signal, subprocess, sys, tempfile, threading, time, requests
repo, picture = sys.argv[1], sys.argv[2]
hold = float(sys.argv[3]) if len(sys.argv) > 3 else 0
count = int(sys.argv[4]) if len(sys.argv) > 4 else 1
data = tempfile.mkdtemp()
env = dict(os.environ, DECKFORGE_DATA_DIR=data, PORT='18931', HOST='127.0.0.1', DECKFORGE_LOG_LEVEL='warn')
acct = json.loads(subprocess.check_output(['node', 'bin/deckforge.js', 'accounts', 'create', '--email', 'p@example.com', '--plan', 'Enterprise', '--json'], cwd=repo, env=env))
srv = subprocess.Popen(['node', 'bin/deckforge.js', 'serve'], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
B = 'http://127.0.0.1:18931'
for _ in range(300):
    try:
        if requests.get(B + '/healthz', timeout=1).ok: break
    except Exception: pass
    time.sleep(0.1)
tok = requests.post(B + '/v1.0/token/create', data={'username': acct['email'], 'password': acct['password'], 'key': acct['key']}).json()['Result']['Access_Token']
name = os.path.basename(picture)
payload = {'presentation': {'template': 'sample.pptx', 'slides': [{'slide_index': 1, 'shapes': [{'name': 'Body', 'filename': name}]}]}}
result = {}
def send():
    t = time.time()
    files = [('files', ('sample.pptx', open(repo + '/examples/sample-template.pptx', 'rb'))), ('files', (name, open(picture, 'rb')))]
    r = requests.post(B + '/v1.0/generator/create', headers={'Authorization': 'Bearer ' + tok}, files=files, data={'jsonData': json.dumps(payload)}, timeout=600)
    result.update(status=r.status_code, seconds=round(time.time() - t, 2), body=r.text[:300] if r.status_code != 200 else len(r.content), warnings=r.headers.get('x-generation-warnings-detail'))
def rss(pid):
    total = 0
    for p in [pid] + [int(c) for c in subprocess.run(['pgrep', '-P', str(pid)], capture_output=True, text=True).stdout.split()]:
        try: total += int(open(f'/proc/{p}/statm').read().split()[1]) * 4096
        except Exception: pass
    return total // 2**20
base_rss = rss(srv.pid)
ths = [threading.Thread(target=send) for _ in range(count)]
for x in ths: x.start()
th = ths[0]
lat, peak, t0 = [], base_rss, time.time()
while (th.is_alive() or time.time() - t0 < hold) and time.time() - t0 < 600:
    s = time.time()
    try: requests.get(B + '/healthz', timeout=30); lat.append(time.time() - s)
    except Exception: lat.append(float('inf'))
    peak = max(peak, rss(srv.pid))
    if hold and time.time() - t0 >= hold: break
    time.sleep(0.2)
t = time.time(); srv.send_signal(signal.SIGTERM)
try: srv.wait(60); term = round(time.time() - t, 2)
except subprocess.TimeoutExpired: term = '>60 (killed)'; srv.kill()
th.join(1)
print(json.dumps(dict(result=result, healthz_max_s=round(max(lat or [0]), 3), healthz_samples=len(lat), rss_before_mb=base_rss, rss_peak_mb=peak, sigterm_s=term)))
