package dev.rekon.promotions.plan;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a stage's {@code soak} as Kubernetes writes durations: {@code 30s}, {@code 10m}, {@code 1h30m}, {@code 0}. */
final class Soak {

    private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    private Soak() {
    }

    /** The duration, zero when none is written, empty when the text is not a duration. */
    static Optional<Duration> parse(String text) {
        if (text == null || text.isBlank() || text.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofHours(number(m.group(1))).plusMinutes(number(m.group(2)))
                .plusSeconds(number(m.group(3))));
    }

    private static long number(String group) {
        return group == null ? 0 : Long.parseLong(group);
    }
}
