package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;

/** Which of a watch's object and this process's own write of it is current. */
class OwnWritesTest {

    private final OwnWrites<Deployment> writes = new OwnWrites<>();

    private static Deployment at(String version) {
        return new DeploymentBuilder().withNewMetadata().withName("shop").withNamespace("team")
                .withResourceVersion(version).endMetadata().build();
    }

    @Test
    void theOwnWriteIsCurrentWhileTheWatchStillShowsTheVersionItReplaced() {
        Deployment written = at("8");
        writes.wrote("team/shop", "7", written);
        assertSame(written, writes.latest("team/shop", at("7")));
        assertSame(written, writes.latest("team/shop", at("7")), "until the watch moves on");
    }

    @Test
    void onceTheWatchShowsAnyOtherVersionItIsTrustedAgainAndTheWriteForgotten() {
        writes.wrote("team/shop", "7", at("8"));
        Deployment delivered = at("8");
        assertSame(delivered, writes.latest("team/shop", delivered));
        Deployment laterByAnother = at("9");
        assertSame(laterByAnother, writes.latest("team/shop", laterByAnother));
        Deployment stillOld = at("7");
        assertSame(stillOld, writes.latest("team/shop", stillOld), "forgotten once the watch moved on");
    }

    @Test
    void writesWithoutAGuardAreNotRemembered() {
        writes.wrote("team/shop", null, at("8"));
        Deployment cached = at("7");
        assertSame(cached, writes.latest("team/shop", cached));
    }

    @Test
    void otherObjectsAreUntouched() {
        writes.wrote("team/shop", "7", at("8"));
        Deployment other = at("7");
        assertSame(other, writes.latest("team/other", other));
    }
}
