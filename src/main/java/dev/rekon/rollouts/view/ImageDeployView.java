package dev.rekon.rollouts.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;

/**
 * An ImageDeploy as the planner reads it (Rekon's {@code rekon.dev} group or kpush's): the Deployment it
 * describes, the containers whose image is written {@code REF=<kpack Image name>}, what was applied, and whether
 * rollouts are held ({@code spec.suspend}). The Deployment template is kept as compact JSON text and made a tree
 * again only when a rollout writes it: a watch holds one view per ImageDeploy, and as a tree the template was most
 * of a view's memory. What every event reads of it (the Deployment's name, the REF containers, whether the spec
 * is usable, the status as typed fields) is taken out once, when the watch delivers the object, not on every plan
 * a page or a pass makes of it. The status is held as its typed reading only ({@code currentStatus}), with what
 * that reading does not hold as text ({@code statusRest}, null when nothing: Rekon's schema has no other field);
 * a status write makes it whole again from both ({@link #status()}), to keep the fields it does not decide. As
 * text beside its reading, the status was a tenth of the heap at 10,000 ImageDeploys.
 * {@code refKind} is the kind its {@code REF=<name>} images name
 * ({@code spec.refKind}): a kpack Image (the default) or a PromotedImage of Rekon's.
 */
public record ImageDeployView(String apiVersion, String kind, String namespace, String name, String uid,
        String resourceVersion, long generation, String deploymentJson, String statusRest, boolean suspend,
        String deploymentName, List<ContainerRef> refs, String specProblem, ImageDeployStatus currentStatus,
        String refKind) {

    public static final String REF_PREFIX = "REF=";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A container (or initContainer) whose image comes from a kpack Image. */
    public record ContainerRef(boolean init, String container, String imageName) {
    }

    public ImageDeployView(String apiVersion, String kind, String namespace, String name, String uid,
            String resourceVersion, long generation, JsonNode deployment, JsonNode status, boolean suspend,
            String refKind) {
        this(apiVersion, kind, namespace, name, uid, resourceVersion, generation,
                deployment.isMissingNode() ? null : deployment.toString(), ImageDeployStatus.of(status), status,
                suspend, deploymentName(deployment, name), refs(podSpec(deployment)),
                specProblem(deployment, podSpec(deployment)), refKind);
    }

    private ImageDeployView(String apiVersion, String kind, String namespace, String name, String uid,
            String resourceVersion, long generation, String deploymentJson, ImageDeployStatus read, JsonNode status,
            boolean suspend, String deploymentName, List<ContainerRef> refs, String specProblem, String refKind) {
        this(apiVersion, kind, namespace, name, uid, resourceVersion, generation, deploymentJson,
                java.util.Optional.ofNullable(read.untyped(status)).map(JsonNode::toString).orElse(null), suspend,
                deploymentName, refs, specProblem, read, refKind);
    }

    /** An ImageDeploy whose REF= images name kpack Images. */
    public ImageDeployView(String apiVersion, String kind, String namespace, String name, String uid,
            String resourceVersion, long generation, JsonNode deployment, JsonNode status, boolean suspend) {
        this(apiVersion, kind, namespace, name, uid, resourceVersion, generation, deployment, status, suspend,
                RolloutNames.KPACK_IMAGE_KIND);
    }

    /** An ImageDeploy that is not suspended. */
    public ImageDeployView(String apiVersion, String kind, String namespace, String name, String uid,
            String resourceVersion, long generation, JsonNode deployment, JsonNode status) {
        this(apiVersion, kind, namespace, name, uid, resourceVersion, generation, deployment, status, false);
    }

    public static ImageDeployView fromJson(JsonNode idp) {
        JsonNode meta = idp.path("metadata");
        return new ImageDeployView(idp.path("apiVersion").asText(null), idp.path("kind").asText("ImageDeploy"),
                meta.path("namespace").asText(null), meta.path("name").asText(null), meta.path("uid").asText(null),
                meta.path("resourceVersion").asText(null), meta.path("generation").asLong(0), idp.path("spec").path("deployment"),
                idp.has("status") && idp.get("status").isObject() ? idp.get("status")
                        : JsonNodeFactory.instance.objectNode(),
                idp.path("spec").path("suspend").asBoolean(false),
                RolloutNames.PROMOTED_IMAGE_KIND.equals(idp.path("spec").path("refKind").asText())
                        ? RolloutNames.PROMOTED_IMAGE_KIND : RolloutNames.KPACK_IMAGE_KIND);
    }

    /** {@code spec.deployment}, as a new tree of its own (a missing node when the spec has none). */
    public JsonNode deployment() {
        try {
            return deploymentJson == null ? MissingNode.getInstance() : JSON.readTree(deploymentJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the template was written as JSON by this class", e);
        }
    }

    /**
     * The status as the ImageDeploy holds it, as a new tree of its own (an empty object when it has none), made
     * from its typed reading and the text of what that reading does not hold.
     */
    public ObjectNode status() {
        try {
            JsonNode rest = statusRest == null ? null : JSON.readTree(statusRest);
            ObjectNode status = rest instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
            status.setAll(currentStatus.toJson());
            return status;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the status was written as JSON by this class", e);
        }
    }

    public String group() {
        return apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
    }

    public dev.rekon.core.ObjectRef ref() {
        return new dev.rekon.core.ObjectRef(apiVersion, kind, namespace, name);
    }

    /** {@code spec.deployment.spec.template.spec}, made from the template text on each call: take it once. */
    public JsonNode podSpec() {
        return podSpec(deployment());
    }

    private static JsonNode podSpec(JsonNode deployment) {
        return deployment.path("spec").path("template").path("spec");
    }

    /** The Deployment's name: {@code spec.deployment.metadata.name}, else the ImageDeploy's own. */
    private static String deploymentName(JsonNode deployment, String name) {
        String n = deployment.path("metadata").path("name").asText("");
        return n.isBlank() ? name : n;
    }

    private static List<ContainerRef> refs(JsonNode podSpec) {
        List<ContainerRef> found = new ArrayList<>();
        collect(podSpec.path("initContainers"), true, found);
        collect(podSpec.path("containers"), false, found);
        return List.copyOf(found);
    }

    /** Whether a REF= image names the kpack Image {@code imageName}. */
    public boolean references(String imageName) {
        return follows(RolloutNames.KPACK_IMAGE_KIND, imageName);
    }

    /** Whether a REF= image names the object {@code imageName} of kind {@code kind} (a kpack Image or a PromotedImage). */
    public boolean follows(String kind, String imageName) {
        return kind.equals(refKind) && refs().stream().anyMatch(r -> r.imageName().equals(imageName));
    }

    /** Whether its REF= images name PromotedImages rather than kpack Images. */
    public boolean followsPromotedImages() {
        return RolloutNames.PROMOTED_IMAGE_KIND.equals(refKind);
    }

    /**
     * The key a watch indexes an ImageDeploy under for the object {@code imageName} of kind {@code kind}: the name
     * for a kpack Image, as ever; {@code PromotedImage/<name>} for a PromotedImage (a name holds no slash).
     */
    public static String indexKey(String kind, String imageName) {
        return RolloutNames.KPACK_IMAGE_KIND.equals(kind) ? imageName : kind + "/" + imageName;
    }

    /** The key a watch indexes an ImageDeploy under by its own name (a name holds no colon, so no Image's key). */
    public static String nameKey(String name) {
        return "name:" + name;
    }

    /** The builds the status says wait while suspended (none when it names none). */
    public List<AppliedImage> waiting() {
        return currentStatus.waiting() == null ? List.of() : currentStatus.waiting();
    }

    /** The status's condition of that type, or null. */
    public Conditions.Written condition(String type) {
        return currentStatus.condition(type);
    }

    /** What status.images says was applied, by kpack Image name. */
    public Map<String, AppliedImage> applied() {
        Map<String, AppliedImage> out = new LinkedHashMap<>();
        if (currentStatus.images() != null) {
            for (AppliedImage a : currentStatus.images()) {
                if (a.name() != null) {
                    out.put(a.name(), a);
                }
            }
        }
        return out;
    }

    /** A problem with the spec that no event can fix, or null when it is usable. */
    private static String specProblem(JsonNode deployment, JsonNode podSpec) {
        if (!deployment.isObject()) {
            return "spec.deployment is missing: set it to a Deployment's metadata and spec";
        }
        JsonNode containers = podSpec.path("containers");
        if (!containers.isArray() || containers.isEmpty()) {
            return "spec.deployment.spec.template.spec.containers is empty: a Deployment needs at least one container";
        }
        for (String list : new String[] { "initContainers", "containers" }) {
            for (JsonNode c : podSpec.path(list)) {
                if (c.path("name").asText("").isBlank()) {
                    return "every entry of spec.deployment.spec.template.spec." + list + " needs a name";
                }
                String image = c.path("image").asText("");
                if (image.startsWith(REF_PREFIX) && image.substring(REF_PREFIX.length()).isBlank()) {
                    return "container '" + c.path("name").asText() + "' has image 'REF=' without a kpack Image name";
                }
            }
        }
        return null;
    }

    public ObjectNode ownerReference() {
        ObjectNode ref = JsonNodeFactory.instance.objectNode();
        ref.put("apiVersion", apiVersion);
        ref.put("kind", kind);
        ref.put("name", name);
        ref.put("uid", uid);
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    private static void collect(JsonNode containers, boolean init, List<ContainerRef> out) {
        for (JsonNode c : containers) {
            String image = c.path("image").asText("");
            if (image.startsWith(REF_PREFIX) && image.length() > REF_PREFIX.length()) {
                out.add(new ContainerRef(init, c.path("name").asText(),
                        image.substring(REF_PREFIX.length()).trim().intern()));
            }
        }
    }
}
