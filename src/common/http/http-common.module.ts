import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { CommonHeaders } from './common-headers.js';
import { ContentEncodings } from './content-encoding.js';
import { DocumentAnswers } from './document-answers.js';
import { HttpsPolicy } from './https-policy.js';

/** HTTP plumbing the global interceptor, the filter and the parser-level refusals share. */
@Module({
  imports: [AvailabilityModule, RateLimitModule],
  providers: [CommonHeaders, HttpsPolicy, ContentEncodings, DocumentAnswers],
  exports: [AvailabilityModule, RateLimitModule, CommonHeaders, HttpsPolicy, ContentEncodings, DocumentAnswers],
})
export class HttpCommonModule {}
