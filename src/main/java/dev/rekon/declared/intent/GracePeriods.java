package dev.rekon.declared.intent;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a Go-style duration as Kubernetes objects write them ({@code 10m}, {@code 1h30m}, {@code 90s}). */
public final class GracePeriods {

    private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

    private GracePeriods() {
    }

    /** The duration, or ten minutes when the text is not one (the CRD's pattern refuses such text already). */
    public static Duration parse(String text) {
        Matcher m = PART.matcher(text == null ? "" : text.trim());
        long millis = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double n = Double.parseDouble(m.group(1));
            millis += (long) (n * switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            });
            end = m.end();
        }
        return end == 0 || end != text.trim().length() ? Duration.ofMinutes(10) : Duration.ofMillis(millis);
    }
}
