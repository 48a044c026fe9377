package dev.rekon.promotions.plan;

/**
 * A person's approval ({@code dev.rekon.promotion.approve}): the stage it lets a build into, and the build, as a
 * full reference with digest or the bare digest.
 */
public record Approval(String stage, String image) {
}
