#!/usr/bin/env python3
# A stand-in for `opencode serve --port N --hostname H` in tst_managedopencode: answers
# GET /global/health ({"healthy": true}, or false with FAKE_OPENCODE_UNHEALTHY=1) and wants HTTP
# Basic "opencode:$OPENCODE_SERVER_PASSWORD" like the real server.
import base64
import http.server
import json
import os
import sys

args = sys.argv[1:]
if not args or args[0] != 'serve':
    sys.exit(2)
port = int(args[args.index('--port') + 1])
host = args[args.index('--hostname') + 1]
password = os.environ.get('OPENCODE_SERVER_PASSWORD', '')
healthy = os.environ.get('FAKE_OPENCODE_UNHEALTHY') != '1'


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        expected = 'Basic ' + base64.b64encode(f'opencode:{password}'.encode()).decode()
        if password and self.headers.get('authorization') != expected:
            self.send_response(401)
            self.end_headers()
            return
        body = json.dumps({'healthy': healthy, 'version': 'fake'}).encode()
        self.send_response(200 if self.path.startswith('/global/health') else 404)
        self.send_header('content-type', 'application/json')
        self.send_header('content-length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


print(f'opencode server listening on http://{host}:{port}', flush=True)
http.server.HTTPServer((host, port), Handler).serve_forever()
