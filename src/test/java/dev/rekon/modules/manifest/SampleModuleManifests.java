package dev.rekon.modules.manifest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The manifest files of the sample module {@code kpack}, a small kpack-like module: its namespace, a CRD, a
 * ServiceAccount, a Role and RoleBinding, a ConfigMap and the controller Deployment. 0.4.3 drops the ConfigMap
 * and changes the Role; 2.0.0 is 0.4.3 relabelled, more than one major version on.
 */
final class SampleModuleManifests {

    /** The module's own namespace: {@code kpack}, or {@code rekon.sample.namespace}. */
    static String namespace() {
        return System.getProperty("rekon.sample.namespace", "kpack");
    }

    private static String placed(String yaml) {
        return yaml.replace("namespace: kpack", "namespace: " + namespace())
                .replace("kind: Namespace\nmetadata:\n  name: kpack", "kind: Namespace\nmetadata:\n  name: " + namespace());
    }
    static final String CRD_GROUP = "operator.kyma-project.io";

    private SampleModuleManifests() {
    }

    /** File name to YAML, in the order of the module's tar. */
    static Map<String, String> files(String version) {
        boolean first = version.equals("0.4.1");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("manifests/00-namespace.yaml", """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: kpack
                """);
        files.put("manifests/10-crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: kpacks.operator.kyma-project.io
                spec:
                  group: operator.kyma-project.io
                  names: {kind: Kpack, listKind: KpackList, plural: kpacks, singular: kpack}
                  scope: Namespaced
                  versions:
                  - name: v1alpha1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        x-kubernetes-preserve-unknown-fields: true
                """);
        files.put("manifests/20-rbac.yaml", """
                apiVersion: v1
                kind: ServiceAccount
                metadata:
                  name: kpack-controller
                  namespace: kpack
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata:
                  name: kpack-controller
                  namespace: kpack
                rules:
                - apiGroups: [""]
                  resources: [RESOURCES]
                  verbs: [get, list, watch]
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata:
                  name: kpack-controller
                  namespace: kpack
                roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: kpack-controller}
                subjects:
                - {kind: ServiceAccount, name: kpack-controller, namespace: kpack}
                """.replace("RESOURCES", first ? "configmaps, pods" : "pods, secrets"));
        if (first) {
            files.put("manifests/30-config.yaml", """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata:
                      name: kpack-config
                      namespace: kpack
                    data:
                      logLevel: info
                    """);
        }
        files.put("manifests/40-controller.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: kpack-controller
                  namespace: kpack
                  labels: {app: kpack-controller, app.kubernetes.io/version: "VERSION"}
                spec:
                  replicas: 1
                  selector:
                    matchLabels: {app: kpack-controller}
                  template:
                    metadata:
                      labels: {app: kpack-controller}
                    spec:
                      serviceAccountName: kpack-controller
                      containers:
                      - name: controller
                        image: registry.k8s.io/pause:3.9
                        env:
                        - {name: KPACK_VERSION, value: "VERSION"}
                """.replace("VERSION", version));
        files.replaceAll((name, yaml) -> placed(yaml));
        return files;
    }

    /** The module's default custom resource, the ModuleTemplate's {@code spec.data}. */
    static String defaultCr() {
        return placed("""
                apiVersion: operator.kyma-project.io/v1alpha1
                kind: Kpack
                metadata:
                  name: default
                  namespace: kpack
                spec:
                  builders: 1
                """);
    }
}
