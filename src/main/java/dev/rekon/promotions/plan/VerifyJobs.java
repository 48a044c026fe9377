package dev.rekon.promotions.plan;

import dev.rekon.promotions.view.Build;

/**
 * Names the verify Job of one build in one stage, so that the same build never gets a second Job and a newer
 * build gets its own: {@code <promotion>-<stage>-<12 hex digits of the digest>}, within the 63 characters a Job's
 * name may have (its Pods' labels carry it).
 */
public final class VerifyJobs {

    private VerifyJobs() {
    }

    public static String name(String promotion, String stage, Build build) {
        String digest = build.digest();
        String hex = digest.substring(digest.indexOf(':') + 1).replaceAll("[^a-z0-9]", "");
        String tail = "-" + hex.substring(0, Math.min(12, hex.length()));
        String head = (promotion + "-" + stage).toLowerCase(java.util.Locale.ROOT);
        return head.substring(0, Math.min(head.length(), 63 - tail.length())).replaceAll("-+$", "") + tail;
    }
}
