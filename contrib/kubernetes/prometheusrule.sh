#!/bin/sh
# Prints contrib/kubernetes/prometheusrule.yaml: a Prometheus Operator
# PrometheusRule holding the alert rules of contrib/prometheus/rdmadoctor.rules.yml
# as they are (its groups under spec), for clusters where Prometheus reads
# rules from PrometheusRule objects rather than from rule files.  After
# tuning a threshold in the rules file, run it again:
#   sh contrib/kubernetes/prometheusrule.sh > contrib/kubernetes/prometheusrule.yaml
# A Prometheus whose ruleSelector asks for a label (kube-prometheus asks
# for `release: <its release>`) needs that label added to metadata.labels.
set -eu
rules=$(dirname "$0")/../prometheus/rdmadoctor.rules.yml
cat <<'HEAD'
# Made by contrib/kubernetes/prometheusrule.sh from
# contrib/prometheus/rdmadoctor.rules.yml: edit that file and run the script.
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: rdmadoctor
  labels:
    app.kubernetes.io/name: rdmadoctor
    app.kubernetes.io/component: exporter
spec:
HEAD
sed -n '/^groups:/,$ s/^\(.\)/  \1/p' "$rules"
