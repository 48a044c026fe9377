package dev.rekon.rollouts.plan;

import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.SemVer;

/**
 * An ImageDeploy's {@code spec.updatePolicy}: which pushed tags its directly written images follow, Keel-like.
 * Either {@code semver} (a {@link SemVerRange}) or {@code level}: {@code patch} (same major.minor), {@code minor}
 * (same major), {@code major} or {@code all} (any higher version; {@code all} also takes pre-releases). A pushed
 * version is taken only when it is higher than the running one; a pre-release only when the running version is a
 * pre-release too, or under {@code all}.
 */
public record UpdatePolicy(SemVerRange range, Level level) {

    /** How far a pushed version may move from the running one. */
    public enum Level {
        PATCH, MINOR, MAJOR, ALL
    }

    /** @return null when the ImageDeploy has no update policy */
    public static UpdatePolicy fromSpec(JsonNode spec) {
        JsonNode p = spec == null ? null : spec.get("updatePolicy");
        if (p == null || p.isNull()) {
            return null;
        }
        boolean hasRange = p.hasNonNull("semver");
        boolean hasLevel = p.hasNonNull("level");
        if (!p.isObject() || hasRange == hasLevel) {
            throw new IllegalArgumentException("spec.updatePolicy needs exactly one of semver (a range such as ^1.2)"
                    + " or level (patch, minor, major or all)");
        }
        if (hasRange) {
            return new UpdatePolicy(SemVerRange.parse(p.get("semver").asText()), null);
        }
        String level = p.get("level").asText("").toUpperCase(Locale.ROOT);
        try {
            return new UpdatePolicy(null, Level.valueOf(level));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.updatePolicy.level '" + p.get("level").asText()
                    + "' is not one of patch, minor, major, all");
        }
    }

    /** Why {@code pushed} may not replace {@code running}, or null when it may. */
    public String refusal(SemVer running, SemVer pushed) {
        if (pushed.compareTo(running) <= 0) {
            return pushed.compareTo(running) == 0 ? "it is the version already running" : "it is older than " + running;
        }
        if (pushed.isPreRelease() && !running.isPreRelease() && level != Level.ALL) {
            return "it is a pre-release and " + running + " is not (use level: all to take pre-releases)";
        }
        if (range != null) {
            return range.contains(pushed) ? null : "it is outside the range " + range;
        }
        return switch (level) {
            case PATCH -> pushed.major() == running.major() && pushed.minor() == running.minor() ? null
                    : "level patch keeps " + running.major() + "." + running.minor() + ".x";
            case MINOR -> pushed.major() == running.major() ? null : "level minor keeps " + running.major() + ".x";
            case MAJOR, ALL -> null;
        };
    }

    @Override
    public String toString() {
        return range != null ? "semver " + range : "level " + level.name().toLowerCase(Locale.ROOT);
    }
}
