#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft: broker and controller in one JVM) for the Kafka fan-out tests
# (docs/adr/0035-kafka-fan-out.md). The broker's jars come from Maven Central through scripts/kafka/pom.xml
# (`mvn dependency:copy-dependencies`, Maven's own cache in ~/.m2) into .kupa/kafka/, and it runs on the machine's
# Java 17.
#
#   scripts/kafka-broker.sh start              fetch the jars if needed, format a fresh log directory, start, wait
#                                              until the broker is ready
#   scripts/kafka-broker.sh start --keep-data  start on the log directory of the last start (the messages stay)
#   scripts/kafka-broker.sh stop               stop the broker this script started (its pid file) and wait for it
#   scripts/kafka-broker.sh fetch              only fetch the jars
#
# KAFKA_PORT (19092) is the client port and KAFKA_CONTROLLER_PORT (19093) the controller's; KUPA_KAFKA_DIR
# (.kupa/kafka) holds the jars, the log directory, the pid file and broker.log. Every failure exits non-zero with the
# reason and the end of broker.log, so that CI fails loudly rather than running the tests without a broker.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
POM="$ROOT/scripts/kafka/pom.xml"
DIR="${KUPA_KAFKA_DIR:-$ROOT/.kupa/kafka}"
PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
LIBS="$DIR/libs"
DATA="$DIR/data"
PID_FILE="$DIR/broker.pid"
LOG="$DIR/broker.log"
START_TIMEOUT_S="${KAFKA_START_TIMEOUT_S:-120}"

fail() {
  echo "kafka-broker: $*" >&2
  if [ -f "$LOG" ]; then
    echo "kafka-broker: the end of $LOG:" >&2
    tail -n 40 "$LOG" >&2
  fi
  exit 1
}

# The jars are fetched again only when the pom changed: its hash is kept beside them.
fetch() {
  command -v java >/dev/null || fail "java is not installed (the broker needs Java 17 or newer)"
  command -v mvn >/dev/null || fail "mvn is not installed (it fetches the broker from Maven Central)"
  local stamp
  stamp="$(sha256sum "$POM" | cut -d' ' -f1)"
  if [ -f "$LIBS/.pom-sha256" ] && [ "$(cat "$LIBS/.pom-sha256")" = "$stamp" ]; then
    return
  fi
  echo "kafka-broker: fetching the broker's jars from Maven Central into $LIBS"
  rm -rf "$LIBS"
  mkdir -p "$LIBS"
  mvn -q -B -f "$POM" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS" ||
    fail "mvn dependency:copy-dependencies failed"
  echo "$stamp" >"$LIBS/.pom-sha256"
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

write_config() {
  mkdir -p "$DIR"
  cat >"$DIR/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$DATA
# Three partitions per topic, so that the tests see streams spread over partitions and each one kept in order.
num.partitions=3
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
EOF
  cat >"$DIR/log4j2.properties" <<EOF
status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = $LOG
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.file.ref = file
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = info
EOF
}

java_args() {
  # C1 only and the serial collector: a test broker on a small machine starts sooner and needs no peak throughput.
  JAVA_ARGS=(-Xms256m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1
    -Dlog4j2.configurationFile="$DIR/log4j2.properties" -cp "$LIBS/*")
}

start() {
  local keep_data="$1"
  if pid="$(running_pid)"; then
    fail "a broker started by this script is already running (pid $pid); stop it first"
  fi
  if port_open "$PORT" || port_open "$CONTROLLER_PORT"; then
    fail "port $PORT or $CONTROLLER_PORT is taken by another process; set KAFKA_PORT and KAFKA_CONTROLLER_PORT"
  fi
  fetch
  write_config
  java_args
  if [ "$keep_data" = no ] || [ ! -f "$DATA/meta.properties" ]; then
    rm -rf "$DATA"
    : >"$LOG"
    local cluster_id
    # A cluster id is 16 random bytes in unpadded base64url, the form `kafka-storage random-uuid` prints.
    cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
    java "${JAVA_ARGS[@]}" kafka.tools.StorageTool format --standalone -t "$cluster_id" -c "$DIR/server.properties" \
      >>"$LOG" 2>&1 || fail "formatting the log directory failed"
  fi
  touch "$LOG"
  # Readiness is looked for in what this start logs, not in an earlier start's lines of the same log.
  local log_from
  log_from=$(($(stat -c %s "$LOG") + 1))
  # Its own session: the broker outlives this script and is not stopped with the caller's process group.
  setsid java "${JAVA_ARGS[@]}" kafka.Kafka "$DIR/server.properties" >>"$LOG" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
  local deadline=$((SECONDS + START_TIMEOUT_S))
  # Ready means the broker logged that it started, not only that its port is open: the port opens before the
  # broker has registered with its controller and can take writes.
  until tail -c "+$log_from" "$LOG" | grep -q "Kafka Server started"; do
    running_pid >/dev/null || fail "the broker exited while starting"
    [ "$SECONDS" -lt "$deadline" ] || fail "the broker did not start within ${START_TIMEOUT_S}s"
    sleep 0.5
  done
  echo "kafka-broker: Apache Kafka $(ls "$LIBS" | sed -n 's/^kafka_2\.13-\(.*\)\.jar$/\1/p') ready on 127.0.0.1:$PORT (pid $(cat "$PID_FILE"))"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"
    return
  fi
  kill "$pid"
  local deadline=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "kafka-broker: pid $pid did not stop within 60s; killing it" >&2
      kill -9 "$pid" 2>/dev/null || true
    fi
    sleep 0.2
  done
  rm -f "$PID_FILE"
  echo "kafka-broker: stopped"
}

case "${1:-}" in
  start)
    if [ "${2:-}" = --keep-data ]; then start yes; else start no; fi
    ;;
  stop) stop ;;
  fetch) fetch ;;
  *)
    echo "usage: $0 start [--keep-data] | stop | fetch" >&2
    exit 2
    ;;
esac
