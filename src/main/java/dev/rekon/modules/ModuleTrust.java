package dev.rekon.modules;

import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.SignatureVerifier;

/**
 * Builds the module policy and the signature verifier from configuration once, so that a bad key file or
 * maintenance window fails at startup with its message rather than on the first event.
 */
@ApplicationScoped
public class ModuleTrust {

    @Inject
    ModulesConfig config;

    private SignatureVerifier verifier;
    private ModuleUpdatePlanner.Policy policy;

    @PostConstruct
    void load() {
        verifier = new SignatureVerifier(PublicKeys.load(config.publicKeys().orElse("")));
        Optional<MaintenanceWindow> window = config.maintenanceWindow().filter(w -> !w.isBlank())
                .map(MaintenanceWindow::parse);
        policy = new ModuleUpdatePlanner.Policy(config.requireSignature(), window);
    }

    public SignatureVerifier verifier() {
        return verifier;
    }

    public ModuleUpdatePlanner.Policy policy() {
        return policy;
    }
}
