package dev.rekon.cluster.watch;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The watches' reading of what the apiserver sends: a watch event and a list page are parsed once into a tree, and
 * each object is handed to the informer as a {@link WatchedObject}. fabric8's own reading turned each watched
 * object into its typed model (a {@code Deployment}), converted that into the {@code GenericKubernetesResource} the
 * informer was made for, and Rekon turned it into a tree again for its views: three passes through Jackson per
 * event, a quarter of a warm rollout event's CPU. Anything else (an ERROR event's Status included) is read as
 * fabric8 reads it. At this edge each object also loses what no facet reads and what is most of its metadata
 * ({@link #trimmed}), and its short texts are made canonical ({@link WatchedText}), so a list page of thousands of
 * objects is held lean until its views are made.
 */
final class TreeSerialization extends KubernetesSerialization {

    /** The annotation {@code kubectl apply} keeps the whole object in. */
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final ObjectMapper trees = new ObjectMapper().setNodeFactory(new WatchedText());

    TreeSerialization() {
        super(new ObjectMapper(), false);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T unmarshal(InputStream is, TypeReference<T> type) {
        Type t = type.getType();
        if (t != WatchEvent.class && t != GenericKubernetesResourceList.class) {
            return super.unmarshal(is, type);
        }
        JsonNode tree;
        try {
            tree = trees.readTree(is);
        } catch (IOException e) {
            throw KubernetesClientException.launderThrowable(e);
        }
        return (T) (t == WatchEvent.class ? event(tree) : list(tree));
    }

    private WatchEvent event(JsonNode tree) {
        String type = tree.path("type").asText();
        JsonNode object = tree.path("object");
        if ("ERROR".equals(type) || !object.path("metadata").isObject()) {
            return new WatchEvent("Status".equals(object.path("kind").asText()) ? convertValue(object, Status.class)
                    : null, type);
        }
        return new WatchEvent(new WatchedObject(trimmed(object)), type);
    }

    private GenericKubernetesResourceList list(JsonNode tree) {
        JsonNode meta = tree.path("metadata");
        List<GenericKubernetesResource> items = new ArrayList<>();
        tree.path("items").forEach(item -> items.add(new WatchedObject(trimmed(item))));
        GenericKubernetesResourceList list = new GenericKubernetesResourceList();
        list.setApiVersion(tree.path("apiVersion").asText(null));
        list.setKind(tree.path("kind").asText(null));
        list.setMetadata(new ListMetaBuilder().withResourceVersion(meta.path("resourceVersion").asText(null))
                .withContinue(meta.path("continue").asText(null)).build());
        list.setItems(items);
        return list;
    }

    /**
     * The object without {@code metadata.managedFields} (a tree of every field each manager set) and the
     * last-applied annotation (the whole object again, as text): no facet reads them, and every write Rekon plans
     * from a view stays guarded by the resourceVersion the view keeps.
     */
    static JsonNode trimmed(JsonNode object) {
        if (object.path("metadata") instanceof ObjectNode meta) {
            meta.remove("managedFields");
            if (meta.path("annotations") instanceof ObjectNode annotations) {
                annotations.remove(LAST_APPLIED);
            }
        }
        return object;
    }
}
