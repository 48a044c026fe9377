package dev.rekon.core;

/** A Kubernetes object named in a reply or a plan: enough to find it with kubectl. */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record ObjectRef(String apiVersion, String kind, String namespace, String name) {

    @Override
    public String toString() {
        return kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }
}
