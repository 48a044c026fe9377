package dev.rekon.status;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import dev.rekon.testing.Await;
import io.restassured.response.Response;

/**
 * A status request answered once the page has loaded: while the watches still list, the page answers 503 with
 * {@code Retry-After} (and says so); a client asks again, as these tests do, for at most a minute.
 */
public final class Loaded {

    private Loaded() {
    }

    /** The first answer to {@code GET path} (with the header, when given) that is not "still loading". */
    public static Response get(String path, String authorization) {
        Response[] last = new Response[1];
        Await.until("the status page to load", Duration.ofSeconds(60), () -> {
            var request = authorization == null ? given() : given().header("Authorization", authorization);
            last[0] = request.get(path);
            if (last[0].statusCode() == 503) {
                assertEquals("2", last[0].header("Retry-After"), "a loading page says when to ask again");
                return false;
            }
            return true;
        });
        return last[0];
    }
}
