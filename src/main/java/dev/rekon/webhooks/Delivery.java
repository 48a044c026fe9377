package dev.rekon.webhooks;

import java.util.List;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What one webhook request says once parsed: the image pushes it reports, and the events in it that were
 * understood but are not image pushes (blob uploads, pulls, other packages), each with the reason. A push
 * with neither tag nor digest names no image: it is always moved to the ignored ones ({@value #NO_TAG_OR_DIGEST}),
 * whichever parser made it, so it is never routed.
 * Registered for reflection here, with its nested {@link Ignored}, as webhook answers write it through Vert.x's mapper.
 */
@RegisterForReflection
public record Delivery(List<ImagePushed> pushes, List<Ignored> ignored) {

    /** An event that is not an image push, e.g. {@code NotAManifestPush}; answered, never routed. */
    @RegisterForReflection
    public record Ignored(String reason, String message) {
    }

    public static final String NO_TAG_OR_DIGEST = "NoTagOrDigest";

    public Delivery {
        List<Ignored> unnamed = pushes.stream().filter(p -> p.tag() == null && p.digest() == null)
                .map(p -> new Ignored(NO_TAG_OR_DIGEST, "the push to " + p.repositoryReference()
                        + " names neither a tag nor a digest; nothing can be routed"))
                .toList();
        pushes = pushes.stream().filter(p -> p.tag() != null || p.digest() != null).toList();
        ignored = java.util.stream.Stream.concat(ignored.stream(), unnamed.stream()).toList();
    }

    public static Delivery of(ImagePushed push) {
        return new Delivery(List.of(push), List.of());
    }

    public static Delivery ignored(String reason, String message) {
        return new Delivery(List.of(), List.of(new Ignored(reason, message)));
    }
}
