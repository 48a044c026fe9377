package dev.rekon.webhooks;

import java.util.List;

/**
 * What one webhook request says once parsed: the image pushes it reports, and the events in it that were
 * understood but are not image pushes (blob uploads, pulls, other packages), each with the reason.
 */
public record Delivery(List<ImagePushed> pushes, List<Ignored> ignored) {

    /** An event that is not an image push, e.g. {@code NotAManifestPush}; answered, never routed. */
    public record Ignored(String reason, String message) {
    }

    public Delivery {
        pushes = List.copyOf(pushes);
        ignored = List.copyOf(ignored);
    }

    public static Delivery of(ImagePushed push) {
        return new Delivery(List.of(push), List.of());
    }

    public static Delivery ignored(String reason, String message) {
        return new Delivery(List.of(), List.of(new Ignored(reason, message)));
    }
}
