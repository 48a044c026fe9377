package dev.rekon.status;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

import io.quarkus.qute.TemplateExtension;

/** What the HTML page shortens for people (the JSON keeps everything whole). */
@TemplateExtension
final class StatusTemplates {

    private static final Pattern DIGEST = Pattern.compile("sha256:([0-9a-f]{12})[0-9a-f]{52}");

    private StatusTemplates() {
    }

    /** Image digests cut to their first 12 hex digits, as {@code docker images} shows them. */
    static String abbrev(String text) {
        return text == null ? "" : DIGEST.matcher(text).replaceAll("sha256:$1…");
    }

    /** A time to the second, in UTC. */
    static String seconds(Instant time) {
        return time == null ? "" : time.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
