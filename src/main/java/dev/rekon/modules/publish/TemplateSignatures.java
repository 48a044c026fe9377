package dev.rekon.modules.publish;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.InvalidEventException;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.release.SignatureCheck;

/** How a published ModuleTemplate's descriptor verifies now, with the keys everything else trusts. */
@ApplicationScoped
public class TemplateSignatures {

    @Inject
    ModuleTrust trust;

    /** Null without a template; a descriptor that does not parse counts as unsigned, saying why. */
    public SignatureCheck check(PublishedTemplate template) {
        if (template == null) {
            return null;
        }
        try {
            return trust.verifier().verify(ComponentDescriptor.parse(template.view().descriptor(),
                    template.view().describe()));
        } catch (InvalidEventException e) {
            // Promotion judges signatures: a descriptor that does not parse is one more unsigned version.
            return SignatureCheck.missing(e.getMessage());
        }
    }

    public boolean required() {
        return trust.policy().requireSignature();
    }
}
