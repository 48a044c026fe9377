package dev.rekon.modules.publish.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One rule of {@code rekon.modules.publish.promotions}, written {@code <target>=<source>+<soak>} (as in
 * {@code regular=fast+24h}): channel {@code target} moves to the version channel {@code source} offers once that
 * version has run {@code Ready} on every Kyma following the module on {@code source} for {@code soak} without a
 * failure. The soak is a number and a unit: {@code s}, {@code m}, {@code h} or {@code d}.
 */
public record PromotionRule(String target, String source, Duration soak) {

    private static final Pattern FORMAT = Pattern.compile("^([a-z]{3,32})=([a-z]{3,32})\\+(\\d{1,6})([smhd])$");

    /** Rules separated by commas; blank or {@code -}: none. */
    public static List<PromotionRule> parseAll(String text) {
        List<PromotionRule> rules = new ArrayList<>();
        Set<String> targets = new HashSet<>();
        for (String part : (text == null ? "" : text).split(",")) {
            String p = part.trim();
            if (p.isEmpty() || p.equals("-")) {
                continue;
            }
            PromotionRule r = parse(p);
            if (!targets.add(r.target())) {
                throw new IllegalArgumentException("promotion rules '" + text + "' move channel " + r.target()
                        + " twice; give each channel one rule");
            }
            rules.add(r);
        }
        return List.copyOf(rules);
    }

    public static PromotionRule parse(String text) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches() || m.group(1).equals(m.group(2))) {
            throw new IllegalArgumentException("promotion rule '" + text + "' is not of the form"
                    + " '<channel>=<other channel>+<soak>' with a soak such as 30m, 24h or 7d, e.g. 'regular=fast+24h'");
        }
        long n = Long.parseLong(m.group(3));
        Duration soak = switch (m.group(4)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        return new PromotionRule(m.group(1), m.group(2), soak);
    }

    @Override
    public String toString() {
        return target + "=" + source + "+" + text(soak);
    }

    /** A soak as the rules write it: {@code 24h}, {@code 7d}, {@code 90s} (a day is {@code 24h}, as most write it). */
    public static String text(Duration d) {
        long s = d.getSeconds();
        return s % 86400 == 0 && s > 86400 ? s / 86400 + "d" : s % 3600 == 0 ? s / 3600 + "h"
                : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
