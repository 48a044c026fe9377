package dev.rekon.webhooks;

import java.util.List;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Who subscribes to pushes of one repository, as a {@link PushRouter} finds them in its index: no registry read
 * and no write. Decides whether the push is routed at all, whether the registry must be asked for a digest the
 * payload lacks, and with whose pull secrets.
 *
 * @param subscribers the subscribing objects, for messages ({@code ImageDeploy demo/api}); empty for none
 * @param needsDigest whether routing to them needs the manifest digest (a router that reads the image itself
 *            with its own credentials does not)
 * @param pullSecrets where the subscribers' registry credentials are
 */
@RegisterForReflection
public record Subscription(List<String> subscribers, boolean needsDigest, List<PullSecrets> pullSecrets) {

    public static final Subscription NONE = new Subscription(List.of(), false, List.of());

    public Subscription {
        subscribers = List.copyOf(subscribers);
        pullSecrets = List.copyOf(pullSecrets);
    }

    public boolean any() {
        return !subscribers.isEmpty();
    }

    /**
     * The registry credentials of one subscriber: the {@code kubernetes.io/dockerconfigjson} Secrets it names in
     * its namespace, and those of its ServiceAccount's {@code imagePullSecrets} (null: none).
     */
    @RegisterForReflection
    public record PullSecrets(String namespace, String serviceAccount, List<String> secretNames) {

        public PullSecrets {
            secretNames = secretNames == null ? List.of() : List.copyOf(secretNames);
        }
    }
}
