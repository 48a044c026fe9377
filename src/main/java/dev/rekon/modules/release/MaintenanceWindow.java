package dev.rekon.modules.release;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A recurring UTC time window in which module versions may change, written {@code [Mon,Sat ]HH:mm-HH:mm}:
 * the days on which the window opens (all days when omitted) and its start and end; an end before the
 * start means the window runs past midnight (e.g. {@code Sat 22:00-04:00} closes on Sunday at 04:00).
 */
public record MaintenanceWindow(Set<DayOfWeek> days, LocalTime start, LocalTime end) {

    private static final Pattern FORMAT = Pattern.compile(
            "^(?:([A-Za-z]{3}(?:,[A-Za-z]{3})*)\\s+)?(\\d{2}:\\d{2})-(\\d{2}:\\d{2})$");

    public MaintenanceWindow {
        days = days.isEmpty() ? EnumSet.allOf(DayOfWeek.class) : EnumSet.copyOf(days);
    }

    /** @throws IllegalArgumentException with a message that shows the expected form */
    public static MaintenanceWindow parse(String text) {
        Matcher m = FORMAT.matcher(text == null ? "" : text.trim());
        try {
            if (!m.matches()) {
                throw new IllegalArgumentException("no match");
            }
            Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
            if (m.group(1) != null) {
                for (String d : m.group(1).split(",")) {
                    days.add(day(d));
                }
            }
            return new MaintenanceWindow(days, LocalTime.parse(m.group(2)), LocalTime.parse(m.group(3)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("maintenance window '" + text
                    + "' is not of the form '[Mon,Sat ]HH:mm-HH:mm' (UTC), e.g. 'Sat,Sun 02:00-06:00'", e);
        }
    }

    private static DayOfWeek day(String abbreviation) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.getDisplayName(TextStyle.SHORT, Locale.ROOT).equalsIgnoreCase(abbreviation)) {
                return d;
            }
        }
        throw new IllegalArgumentException(abbreviation);
    }

    public boolean contains(Instant instant) {
        ZonedDateTime t = instant.atZone(ZoneOffset.UTC);
        LocalTime time = t.toLocalTime();
        if (!end.isBefore(start)) {
            return days.contains(t.getDayOfWeek()) && !time.isBefore(start) && time.isBefore(end);
        }
        return days.contains(t.getDayOfWeek()) && !time.isBefore(start)
                || days.contains(t.getDayOfWeek().minus(1)) && time.isBefore(end);
    }

    /** The next moment the window opens, strictly after {@code instant}. */
    public Instant nextOpening(Instant instant) {
        ZonedDateTime t = instant.atZone(ZoneOffset.UTC);
        ZonedDateTime candidate = t.with(start).withSecond(0).withNano(0);
        if (!candidate.isAfter(t)) {
            candidate = candidate.plusDays(1);
        }
        while (!days.contains(candidate.getDayOfWeek())) {
            candidate = candidate.plusDays(1);
        }
        return candidate.toInstant();
    }

    @Override
    public String toString() {
        String d = days.size() == 7 ? ""
                : days.stream().map(x -> x.getDisplayName(TextStyle.SHORT, Locale.ROOT))
                        .collect(Collectors.joining(",")) + " ";
        return d + start + "-" + end + " UTC";
    }
}
