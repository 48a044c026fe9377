package dev.rekon.packaging;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * /q/metrics counts events by type and outcome and times Kubernetes API calls; an event's traceparent
 * reaches the log MDC.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ObservabilityTest {

    static final String ADD = "dev.knative.apiserver.resource.add";

    @Test
    void eventsAreCountedByTypeAndOutcomeAndApiCallsAreTimed() {
        double unrouted = events("dev.rekon.nothing.here", "unrouted");
        double invalid = events("dev.rekon.image.built", "invalid");

        var k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, "metrics");
        var image = Kpack.built(k8s, "metrics", "app", "registry.local/app:1", 1);
        var extensions = Events.apiServerExtensions("kpack.io/v1alpha2", "Image", "metrics", "app");
        // no ImageDeploy names the Image: the function reads the cluster and answers without writing
        String outcome = Events.binary(ADD, extensions, Kpack.json(image)).statusCode(200).extract().path("outcome");
        double before = events(ADD, outcome);
        Events.binary(ADD, extensions, Kpack.json(image)).statusCode(200);
        Events.binary("dev.rekon.nothing.here", Map.of(), "{}").statusCode(404);
        Events.binary("dev.rekon.image.built", Map.of(), "[]").statusCode(400);

        assertEquals(before + 1, events(ADD, outcome), grep(metrics(), "rekon_events"));
        assertEquals(unrouted + 1, events("dev.rekon.nothing.here", "unrouted"));
        assertEquals(invalid + 1, events("dev.rekon.image.built", "invalid"));
        String metrics = metrics();
        assertTrue(Pattern.compile("rekon_api_calls_seconds_count\\{[^}]*method=\"GET\"[^}]*resource=\"rekon.dev/imagedeploys\"")
                .matcher(metrics).find(), "no timer for listing ImageDeploys in:\n" + grep(metrics, "rekon_api_calls"));
    }

    @Test
    void theTraceparentExtensionIsInTheLogMdc() {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r instanceof ExtLogRecord e) {
                    e.copyAll(); // the MDC as it is on the logging thread, not on the test's
                }
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.rekon.web.EventObservability");
        logger.addHandler(capture);
        try {
            String tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
            Events.binary("dev.rekon.image.built", Map.of("traceparent", tp), "[]").statusCode(400);
            assertTrue(records.stream().anyMatch(r -> r instanceof ExtLogRecord e && tp.equals(e.getMdc("traceparent"))),
                    "no log record with the traceparent in its MDC among " + records.size());
        } finally {
            logger.removeHandler(capture);
        }
    }

    static double events(String type, String outcome) {
        Matcher m = Pattern.compile("rekon_events_total\\{([^}]*)\\} ([0-9.E+]+)").matcher(metrics());
        double total = 0;
        while (m.find()) {
            if (m.group(1).contains("type=\"" + type + "\"") && m.group(1).contains("outcome=\"" + outcome + "\"")) {
                total += Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    static String metrics() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    static String grep(String text, String word) {
        return String.join("\n", text.lines().filter(l -> l.contains(word)).toList());
    }
}
