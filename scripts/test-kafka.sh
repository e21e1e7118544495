#!/usr/bin/env bash
# `npm run test:kafka`: the Kafka fan-out specs (`*.kafka-spec.ts`) against a real Apache Kafka broker. Starts one
# broker for all of them (scripts/kafka-broker.sh, which fetches it from Maven Central the first time), runs the
# specs, and stops the broker whatever happened. A broker that fails to start fails the run: these specs are never
# skipped. The specs stop and restart the same broker themselves to show an outage. Arguments go to jest
# (`npm run test:kafka -- -t outage`).
set -euo pipefail
cd "$(dirname "$0")/.."

started=$SECONDS
bash scripts/kafka-broker.sh start
trap 'bash scripts/kafka-broker.sh stop' EXIT
echo "kafka: broker up after $((SECONDS - started))s"
npm run build:proto >/dev/null
npm run test:kafka -w @kupa/api -- "$@"
echo "kafka: broker, specs and all took $((SECONDS - started))s"
