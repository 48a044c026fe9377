package dev.rekon.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SemVerTest {

    @ParameterizedTest(name = "{0} < {1}")
    @CsvSource({
            "0.4.1, 0.4.3",
            "1.9.0, 1.10.0",
            "1.0.0-alpha, 1.0.0",
            "1.0.0-alpha, 1.0.0-alpha.1",
            "1.0.0-alpha.1, 1.0.0-alpha.beta",
            "1.0.0-beta.2, 1.0.0-beta.11",
            "1.0.0-rc.1, 1.0.0",
            "v1.2.3, 2.0.0",
    })
    void ordersByPrecedence(String lower, String higher) {
        assertTrue(SemVer.parse(lower).compareTo(SemVer.parse(higher)) < 0);
        assertTrue(SemVer.parse(higher).compareTo(SemVer.parse(lower)) > 0);
    }

    @ParameterizedTest
    @ValueSource(strings = { "1.2", "1.2.3.4", "01.2.3", "latest", "", "1.2.3-", "1.2.3+" })
    void rejectsWhatIsNotSemver(String text) {
        assertTrue(SemVer.tryParse(text).isEmpty());
    }

    @org.junit.jupiter.api.Test
    void ignoresBuildMetadataInPrecedence() {
        assertEquals(0, SemVer.parse("1.0.0+a").compareTo(SemVer.parse("1.0.0+b")));
    }
}
