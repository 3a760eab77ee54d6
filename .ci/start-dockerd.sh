#!/usr/bin/env bash
# Start the Docker engine in the background when it is not answering, then wait (bounded) until it does.
# Usage: .ci/start-dockerd.sh [timeout_seconds]   (default 60). Exit 0 when `docker info` answers.
set -u
timeout_s="${1:-60}"
log="${DOCKERD_LOG:-/tmp/dockerd.log}"

if docker info >/dev/null 2>&1; then
  echo "dockerd: already running"
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "dockerd: not installed (apt-get install -y docker.io)" >&2
  exit 1
fi
if [ "$(id -u)" != "0" ]; then
  echo "dockerd: must start as root (running as uid $(id -u))" >&2
  exit 1
fi
# A stale pid file from a killed engine blocks a new one.
if [ -f /var/run/docker.pid ] && ! kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
  rm -f /var/run/docker.pid
fi
nohup dockerd --storage-driver=overlay2 --iptables=false --ip-masq=false --bridge=none \
  >"$log" 2>&1 </dev/null &
pid=$!
for _ in $(seq 1 "$timeout_s"); do
  if docker info >/dev/null 2>&1; then
    echo "dockerd: answering (pid $pid, log $log)"
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "dockerd: exited during start-up; last log lines:" >&2
    tail -n 5 "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "dockerd: no answer after ${timeout_s}s; last log lines:" >&2
tail -n 5 "$log" >&2
exit 1
