package dev.rekon.promotions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The digest a CDEvent's {@code artifactId} names: an OCI purl's version, as Rekon's own CDEvents write it. */
class CdEventArtifactTest {

    static final String DIGEST = "sha256:" + "a".repeat(64);

    @Test
    void anOciPurlGivesItsDigest() {
        assertEquals(DIGEST, PromotionFunctions.digest("pkg:oci/hello@sha256%3A" + "a".repeat(64)
                + "?repository_url=registry.local/r/hello"));
        assertEquals(DIGEST, PromotionFunctions.digest("pkg:oci/hello@" + DIGEST));
    }

    @Test
    void anyOtherArtifactGivesNone() {
        assertNull(PromotionFunctions.digest("pkg:oci/hello@latest"), "a tag is no digest");
        assertNull(PromotionFunctions.digest("pkg:maven/dev.rekon/rekon@1.0"));
        assertNull(PromotionFunctions.digest("not a purl"));
        assertNull(PromotionFunctions.digest(""));
    }
}
