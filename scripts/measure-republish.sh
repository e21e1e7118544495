#!/usr/bin/env bash
# `npm run bench:republish`: the rate of `kupa events republish` (docs/adr/0116) against the test broker, apart
# from `npm run bench` (whose server runs without Kafka). Starts the broker as `npm run test:kafka` does, runs
# services/api/src/platform/kafka/republish-rate.measure.ts on the PostgreSQL of DATABASE_URL (required), prints its
# JSON, and stops the broker. REPUBLISH_EVENTS (200000), REPUBLISH_BATCH_SIZE (2000) and REPUBLISH_PRODUCERS (the
# command's default) are its knobs; KAFKA_PORT and KAFKA_CONTROLLER_PORT move the broker as for `npm run test:kafka`.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL the measurement may create a database on}"
bash scripts/kafka-broker.sh start >&2
trap 'bash scripts/kafka-broker.sh stop >&2' EXIT
npm run build:proto >/dev/null
# The broker's CPU per event is read from its /proc entry.
KAFKA_BROKER_PID="$(cat "${KUPA_KAFKA_DIR:-.kupa/kafka}/broker.pid")"
export KAFKA_BROKER_PID
echo "load before: $(uptime)" >&2
node --import tsx services/api/src/platform/kafka/republish-rate.measure.ts
echo "load after: $(uptime)" >&2
