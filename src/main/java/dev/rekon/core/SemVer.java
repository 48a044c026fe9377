package dev.rekon.core;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version (semver.org 2.0.0), compared by precedence: build metadata is ignored, a pre-release
 * sorts before its release. A leading {@code v} is accepted, as tags and kpack versions often carry one.
 */
public record SemVer(long major, long minor, long patch, String preRelease, String build) implements Comparable<SemVer> {

    private static final Pattern FORMAT = Pattern.compile(
            "^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
                    + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
                    + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$");

    public static Optional<SemVer> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SemVer(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)), m.group(4), m.group(5)));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    /** @throws IllegalArgumentException with a message naming the text, when it is not semver */
    public static SemVer parse(String text) {
        return tryParse(text).orElseThrow(
                () -> new IllegalArgumentException("'" + text + "' is not a semantic version (MAJOR.MINOR.PATCH)"));
    }

    public boolean isPreRelease() {
        return preRelease != null;
    }

    @Override
    public int compareTo(SemVer o) {
        int c = Long.compare(major, o.major);
        if (c == 0) {
            c = Long.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compare(patch, o.patch);
        }
        return c != 0 ? c : comparePreRelease(preRelease, o.preRelease);
    }

    private static int comparePreRelease(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = compareIdentifier(x[i], y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    private static int compareIdentifier(String a, String b) {
        boolean na = a.chars().allMatch(Character::isDigit);
        boolean nb = b.chars().allMatch(Character::isDigit);
        if (na && nb) {
            return new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b));
        }
        if (na != nb) {
            return na ? -1 : 1;
        }
        return a.compareTo(b);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (preRelease == null ? "" : "-" + preRelease)
                + (build == null ? "" : "+" + build);
    }
}
