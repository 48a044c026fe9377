package dev.rekon.rollouts.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rekon.core.SemVer;

/**
 * A semver range as npm and Keel write it: comparators ({@code >=1.2.0}, {@code <2}, {@code =1.4.1}) joined by
 * spaces (all must hold) and alternatives joined by {@code ||}; caret ({@code ^1.2}), tilde ({@code ~1.2.3}) and
 * x-ranges ({@code 1.x}, {@code 1.2.*}, {@code 1.2}, {@code *}). Upper bounds that a caret, tilde or x-range
 * implies exclude that bound's pre-releases ({@code ^1.2} does not admit {@code 2.0.0-rc.1}).
 * <p>
 * Written here rather than taken from semver4j (5.4.0): npm's rule, which semver4j follows with no switch to turn
 * it off, admits a pre-release only through a comparator naming the same major.minor.patch, so under {@code ^1.2}
 * a Deployment running 1.3.0-rc.1 would never follow to 1.3.0-rc.2; and it reads an empty range as {@code *}
 * and a word as a range nothing satisfies, where this one refuses both with a message.
 */
public final class SemVerRange {

    private static final Pattern COMPARATOR = Pattern.compile(
            "^(\\^|~|>=|<=|>|<|=)?\\s*v?(\\*|x|X|\\d+)(?:\\.(\\*|x|X|\\d+))?(?:\\.(\\*|x|X|\\d+))?"
                    + "(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?$");

    private record Bound(SemVer version, boolean inclusive) {
    }

    /** One conjunction: every lower and upper bound must hold. */
    private record Set(List<Bound> lower, List<Bound> upper) {
        boolean contains(SemVer v) {
            return lower.stream().allMatch(b -> b.inclusive() ? v.compareTo(b.version()) >= 0 : v.compareTo(b.version()) > 0)
                    && upper.stream().allMatch(b -> b.inclusive() ? v.compareTo(b.version()) <= 0 : v.compareTo(b.version()) < 0);
        }
    }

    private final String text;
    private final List<Set> alternatives;

    private SemVerRange(String text, List<Set> alternatives) {
        this.text = text;
        this.alternatives = alternatives;
    }

    /** @throws IllegalArgumentException naming the part of the range that is not understood */
    public static SemVerRange parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the semver range is empty");
        }
        List<Set> alternatives = new ArrayList<>();
        for (String alternative : text.split("\\|\\|", -1)) {
            Set set = new Set(new ArrayList<>(), new ArrayList<>());
            String[] parts = alternative.trim().replaceAll("(\\^|~|>=|<=|>|<|=)\\s+", "$1").split("\\s+");
            for (String part : parts) {
                if (!part.isEmpty()) {
                    add(set, part, text);
                }
            }
            alternatives.add(set);
        }
        return new SemVerRange(text.trim(), alternatives);
    }

    public boolean contains(SemVer version) {
        return alternatives.stream().anyMatch(s -> s.contains(version));
    }

    @Override
    public String toString() {
        return text;
    }

    private static void add(Set set, String part, String range) {
        Matcher m = COMPARATOR.matcher(part);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + part + "' in semver range '" + range + "' is not a comparator such as"
                    + " ^1.2, ~1.2.3, >=1.2.0, <2.0.0 or 1.x");
        }
        String op = m.group(1) == null ? "" : m.group(1);
        Long major = number(m.group(2));
        Long minor = number(m.group(3));
        Long patch = number(m.group(4));
        String pre = m.group(5);
        if (major == null) {
            if (!op.isEmpty() && !op.equals("=") && !op.equals(">=")) {
                throw new IllegalArgumentException("'" + part + "' in semver range '" + range + "' compares with '*'");
            }
            return; // "*": any version
        }
        SemVer floor = new SemVer(major, minor == null ? 0 : minor, patch == null ? 0 : patch, pre, null);
        boolean partial = minor == null || patch == null;
        switch (op) {
            case "^" -> caret(set, floor, minor, patch);
            case "~" -> {
                set.lower().add(new Bound(floor, true));
                set.upper().add(below(minor == null ? major + 1 : major, minor == null ? 0 : minor + 1, 0));
            }
            case ">=" -> set.lower().add(new Bound(floor, true));
            case ">" -> set.lower().add(partial ? new Bound(next(floor, minor, patch), true) : new Bound(floor, false));
            case "<" -> set.upper().add(partial ? below(floor.major(), floor.minor(), floor.patch()) : new Bound(floor, false));
            case "<=" -> set.upper().add(partial ? below(next(floor, minor, patch)) : new Bound(floor, true));
            default -> {
                if (partial) {
                    set.lower().add(new Bound(floor, true));
                    set.upper().add(below(next(floor, minor, patch)));
                } else {
                    set.lower().add(new Bound(floor, true));
                    set.upper().add(new Bound(floor, true));
                }
            }
        }
    }

    /** ^1.2.3 := >=1.2.3 <2.0.0-0; ^0.2.3 := <0.3.0-0; ^0.0.3 := <0.0.4-0 (the first non-zero part is fixed). */
    private static void caret(Set set, SemVer floor, Long minor, Long patch) {
        set.lower().add(new Bound(floor, true));
        if (floor.major() > 0 || minor == null) {
            set.upper().add(below(floor.major() + 1, 0, 0));
        } else if (floor.minor() > 0 || patch == null) {
            set.upper().add(below(0, floor.minor() + 1, 0));
        } else {
            set.upper().add(below(0, 0, floor.patch() + 1));
        }
    }

    /** The first version after the partial version {@code floor} (1.2 → 1.3.0, 1 → 2.0.0). */
    private static SemVer next(SemVer floor, Long minor, Long patch) {
        if (minor == null) {
            return new SemVer(floor.major() + 1, 0, 0, null, null);
        }
        if (patch == null) {
            return new SemVer(floor.major(), floor.minor() + 1, 0, null, null);
        }
        return new SemVer(floor.major(), floor.minor(), floor.patch() + 1, null, null);
    }

    private static Bound below(SemVer v) {
        return below(v.major(), v.minor(), v.patch());
    }

    /** An exclusive bound below every pre-release of {@code major.minor.patch}. */
    private static Bound below(long major, long minor, long patch) {
        return new Bound(new SemVer(major, minor, patch, "0", null), false);
    }

    private static Long number(String part) {
        return part == null || part.equals("*") || part.equalsIgnoreCase("x") ? null : Long.parseLong(part);
    }
}
