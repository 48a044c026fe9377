package dev.rekon.rollouts.apply;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.JsonEquality;
import dev.rekon.rollouts.view.ImageDeployStatus;

/**
 * The merge patch a status write sends: only the top-level fields that change (arrays whole, as a merge patch
 * replaces them), null for one removed, nothing for a field the plan leaves as it is or sets to the same value.
 */
class ImageDeployStatusBodyTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static final String IMAGES_1 = "[{\"name\":\"app\",\"image\":\"r/app@sha256:1\",\"buildCounter\":1}]";
    static final String IMAGES_2 = "[{\"name\":\"app\",\"image\":\"r/app@sha256:2\",\"buildCounter\":2}]";
    static final String READY = "[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"InSync\",\"message\":\"m\","
            + "\"observedGeneration\":3,\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]";

    record Row(String what, String current, String planned, String patch) {
        @Override
        public String toString() {
            return what;
        }
    }

    static List<Row> rows() {
        return List.of(
                new Row("a rollout: new images, the rest as it was",
                        "{\"observedGeneration\":3,\"deployment\":\"web\",\"images\":" + IMAGES_1 + ",\"conditions\":"
                                + READY + "}",
                        "{\"observedGeneration\":3,\"images\":" + IMAGES_2 + ",\"conditions\":" + READY + "}",
                        "{\"images\":" + IMAGES_2 + "}"),
                new Row("a first status: every field planned",
                        "null",
                        "{\"observedGeneration\":1,\"deployment\":\"web\",\"images\":" + IMAGES_1 + "}",
                        "{\"observedGeneration\":1,\"deployment\":\"web\",\"images\":" + IMAGES_1 + "}"),
                new Row("waiting builds gone: removed with null",
                        "{\"observedGeneration\":3,\"waiting\":" + IMAGES_2 + "}",
                        "{\"waiting\":[]}",
                        "{\"waiting\":null}"),
                new Row("a generation read as an int equals the long planned",
                        "{\"observedGeneration\":3}",
                        "{\"observedGeneration\":3}",
                        "{}"),
                new Row("a field of another writer is left alone",
                        "{\"observedGeneration\":3,\"other\":\"kept\"}",
                        "{\"observedGeneration\":4}",
                        "{\"observedGeneration\":4}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void thePatchCarriesOnlyWhatChanges(Row row) throws Exception {
        JsonNode current = JSON.readTree(row.current());
        JsonNode planned = JSON.readTree(row.planned());
        ImageDeployStatus read = ImageDeployStatus.of(planned);
        ImageDeployStatus status = new ImageDeployStatus(read.observedGeneration(), read.deployment(), read.images(),
                planned.has("waiting") ? List.copyOf(read.waiting()) : null, read.conditions(), read.history());
        JsonNode patch = ImageDeployStatusBody.patch(current, status);
        // 3 and 3L are one number to the apiserver: a status read back holds ints, one planned longs.
        assertTrue(JsonEquality.same(JSON.readTree(row.patch()), patch), row.patch() + " vs " + patch);
    }
}
