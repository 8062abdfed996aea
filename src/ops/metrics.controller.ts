import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../common/http/access.decorator';
import { Metrics } from './metrics';
import { MetricsTokenGuard } from './metrics-token.guard';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  /** Prometheus text format; behind METRICS_TOKEN when the operator sets one. */
  @Get()
  @Access('public')
  @UseGuards(MetricsTokenGuard)
  async getMetrics(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
