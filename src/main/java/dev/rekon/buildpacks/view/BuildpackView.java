package dev.rekon.buildpacks.view;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.ObjectRef;
import dev.rekon.registry.ImageReference;

/**
 * What Rekon reads of a Buildpack or ClusterBuildpack: the image it names ({@code spec.source.image}, or
 * {@code spec.image} as older kpack wrote it), whose pull secrets to use, and the current status.
 */
public record BuildpackView(String kind, String namespace, String name, long generation, String image,
        String serviceAccountNamespace, String serviceAccountName, JsonNode status) {

    public static final String API_VERSION = "kpack.io/v1alpha2";

    private static final ObjectMapper JSON = new ObjectMapper();

    public static BuildpackView of(JsonNode object) {
        JsonNode meta = object.path("metadata");
        JsonNode spec = object.path("spec");
        String kind = object.path("kind").asText();
        String namespace = blankToNull(meta.path("namespace").asText(null));
        String image = blankToNull(spec.path("source").path("image").asText(null));
        if (image == null) {
            image = blankToNull(spec.path("image").asText(null));
        }
        String saNamespace;
        String saName;
        if (BuildpackSource.CLUSTER_BUILDPACK.equals(kind)) {
            saNamespace = blankToNull(spec.path("serviceAccountRef").path("namespace").asText(null));
            saName = blankToNull(spec.path("serviceAccountRef").path("name").asText(null));
        } else {
            saNamespace = namespace;
            saName = blankToNull(spec.path("serviceAccountName").asText(null));
        }
        return new BuildpackView(kind, namespace, meta.path("name").asText(), meta.path("generation").asLong(),
                image, saNamespace, saName, object.get("status"));
    }

    public ObjectRef ref() {
        return new ObjectRef(API_VERSION, kind, namespace, name);
    }

    /** The buildpacks this resource's status lists now (no registry read). */
    public BuildpackSource asSource() {
        List<BuildpackEntry> entries = status == null || !status.has("buildpacks") ? List.of()
                : JSON.convertValue(status.get("buildpacks"),
                        JSON.getTypeFactory().constructCollectionType(List.class, BuildpackEntry.class));
        return new BuildpackSource(kind, namespace, name, entries);
    }

    /**
     * The image to read for a push (null: no push): pinned to the pushed digest when the push was of the very
     * tag this resource names, because a registry may announce a push before its tag points at the new manifest.
     */
    public String imageToRead(ImageReference pushed) {
        if (image == null || pushed == null || pushed.digest() == null || pushed.tag() == null) {
            return image;
        }
        try {
            ImageReference named = ImageReference.parse(image);
            boolean sameTag = named.digest() == null && pushed.tag().equals(named.tag())
                    && pushed.repositoryKey().equals(named.repositoryKey());
            return sameTag ? named.withDigest(pushed.digest()).toString() : image;
        } catch (IllegalArgumentException e) {
            return image;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
