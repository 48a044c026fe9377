package dev.rekon.registry;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A username and password for one registry, as a dockerconfigjson entry gives them. */
public record Credential(String username, String password) {

    @Override
    public String toString() {
        return "Credential[" + username + ", ***]";
    }

    String basicHeader() {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
