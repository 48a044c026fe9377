package dev.rekon.modules.lifecycle.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/**
 * An object of a module's manifest or inventory as the cluster has it: the module its label names (null when it
 * carries none: someone else's), and the object itself for the drift check.
 */
public record LiveObject(ObjectRef ref, String module, ObjectNode object) {
}
