package dev.rekon.modules.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.rekon.modules.release.MaintenanceWindow;

class MaintenanceWindowTest {

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource({
            "02:00-04:00, 2026-03-04T02:00:00Z, true",
            "02:00-04:00, 2026-03-04T04:00:00Z, false",
            "Sat 22:00-04:00, 2026-03-07T23:00:00Z, true",
            "Sat 22:00-04:00, 2026-03-08T03:59:00Z, true",
            "Sat 22:00-04:00, 2026-03-09T03:00:00Z, false",
            "'Mon,Wed 10:00-11:00', 2026-03-04T10:30:00Z, true",
            "'Mon,Wed 10:00-11:00', 2026-03-05T10:30:00Z, false",
    })
    void containsInstantsInUtc(String window, String instant, boolean expected) {
        assertEquals(expected, MaintenanceWindow.parse(window).contains(Instant.parse(instant)));
    }

    @ParameterizedTest
    @CsvSource({
            "Sat 02:00-04:00, 2026-03-04T12:00:00Z, 2026-03-07T02:00:00Z",
            "02:00-04:00, 2026-03-04T01:00:00Z, 2026-03-04T02:00:00Z",
            "02:00-04:00, 2026-03-04T02:00:00Z, 2026-03-05T02:00:00Z",
    })
    void namesTheNextOpening(String window, String now, String next) {
        assertEquals(Instant.parse(next), MaintenanceWindow.parse(window).nextOpening(Instant.parse(now)));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "2-4", "Sat", "Xyz 02:00-04:00", "25:00-26:00" })
    void rejectsOtherForms(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MaintenanceWindow.parse(text));
        assertEquals("maintenance window '" + text + "' is not of the form '[Mon,Sat ]HH:mm-HH:mm' (UTC), e.g."
                + " 'Sat,Sun 02:00-06:00'", e.getMessage());
    }
}
