// Validates Kubernetes objects against the schemas kubernetes-models and
// @kubernetes-models/prometheus-operator carry: ajv's standalone validators,
// which those packages compile from Kubernetes' published OpenAPI spec and
// from the Prometheus Operator's CRDs (versions pinned in package.json).
// Reads a JSON array of objects on standard input; prints one line for each
// (`ok KIND NAME` or `invalid KIND NAME: PATH MESSAGE; ...`, or `unknown`
// for a kind it has no schema of) and exits 0 when every one is ok.
"use strict";
const models = {
  "apps/v1": require("kubernetes-models/apps/v1"),
  v1: require("kubernetes-models/v1"),
  "monitoring.coreos.com/v1": require("@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1"),
};

const objects = JSON.parse(require("fs").readFileSync(0, "utf8"));
let bad = 0;
for (const obj of objects) {
  const name = `${obj.kind} ${obj.metadata && obj.metadata.name}`;
  const Model = (models[obj.apiVersion] || {})[obj.kind];
  if (!Model) {
    console.log(`unknown ${name}: no schema for ${obj.apiVersion} ${obj.kind}`);
    bad++;
    continue;
  }
  try {
    new Model(obj).validate();
    console.log(`ok ${name}`);
  } catch (e) {
    const why = (e.errors || []).map((x) => `${x.instancePath} ${x.message}`).join("; ");
    console.log(`invalid ${name}: ${why || e.message}`);
    bad++;
  }
}
process.exit(bad ? 1 : 0);
