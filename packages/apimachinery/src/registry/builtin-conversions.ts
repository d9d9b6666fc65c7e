// The conversions of the built-in kinds served in more than one version from one collection
// (upstream's legacyscheme.Scheme with each group's RegisterConversions).
import { addAdmissionRegistrationConversions } from './admissionregistration-conversion.js';
import { addAutoscalingConversions } from './autoscaling-conversion.js';
import { Conversions } from './conversion.js';

export const builtinConversions: Conversions = new Conversions();
addAutoscalingConversions(builtinConversions);
addAdmissionRegistrationConversions(builtinConversions);
