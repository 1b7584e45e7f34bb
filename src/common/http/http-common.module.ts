import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AdmissionPolicy } from './admission.js';
import { CommonHeaders } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';
import { ContentEncodings } from './content-encoding.js';
import { FastPaths } from './fast-paths.js';

/** HTTP helpers every controller uses; feature modules import it. */
@Module({
  imports: [AvailabilityModule, RateLimitModule],
  providers: [AdmissionPolicy, DocumentResponder, CommonHeaders, FastPaths, ContentEncodings],
  exports: [AvailabilityModule, RateLimitModule, AdmissionPolicy, DocumentResponder, CommonHeaders, FastPaths, ContentEncodings],
})
export class HttpCommonModule {}
