package dev.rekon.modules;

import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.release.MaintenanceWindow;

/**
 * Builds the module policy and the signature verifier from configuration once, so that a bad key file or
 * maintenance window fails at startup with its message rather than on the first event.
 */
@ApplicationScoped
public class ModuleTrust {

    /** Apply only releases whose signature verifies against the public keys. */
    @ConfigProperty(name = "rekon.modules.require-signature", defaultValue = "false")
    boolean requireSignature;

    /** Comma-separated PEM files (or directories of *.pem) holding the trusted RSA public keys. */
    @ConfigProperty(name = "rekon.modules.public-keys")
    Optional<String> publicKeys;

    /** Optional UTC window for version changes, e.g. {@code Sat,Sun 02:00-06:00}. */
    @ConfigProperty(name = "rekon.modules.maintenance-window")
    Optional<String> maintenanceWindow;

    private SignatureVerifier verifier;
    private ModuleUpdatePlanner.Policy policy;

    @PostConstruct
    void load() {
        verifier = new SignatureVerifier(PublicKeys.load(publicKeys.orElse("")));
        Optional<MaintenanceWindow> window = maintenanceWindow.filter(w -> !w.isBlank())
                .map(MaintenanceWindow::parse);
        policy = new ModuleUpdatePlanner.Policy(requireSignature, window);
    }

    /** A trust of the given policy and verifier, outside CDI. */
    public static ModuleTrust of(ModuleUpdatePlanner.Policy policy, SignatureVerifier verifier) {
        ModuleTrust t = new ModuleTrust();
        t.policy = policy;
        t.verifier = verifier;
        return t;
    }

    public SignatureVerifier verifier() {
        return verifier;
    }

    public ModuleUpdatePlanner.Policy policy() {
        return policy;
    }
}
