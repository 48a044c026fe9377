package dev.rekon.webhooks;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what a registry credential is found in: Secrets and ServiceAccounts. Failures reach the caller in
 * Rekon's terms (a refusal as {@link dev.rekon.core.RefusedException}).
 */
public interface PullSecretGateway {

    /** The Secret's {@code data} (values base64, as stored), or empty when the Secret does not exist. */
    Optional<Map<String, String>> secretData(String namespace, String name);

    /** The names in the ServiceAccount's {@code imagePullSecrets}, or empty when it does not exist. */
    Optional<List<String>> imagePullSecrets(String namespace, String serviceAccount);
}
